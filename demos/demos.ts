/**
 * Every demo of the page, in menu order. Each module under ui/ registers its demos with
 * `registerDemo(category, name, factory)` (demos/registry.ts), like Box2D's samples; import it here.
 * Demo modules must not touch the DOM at import time (the browser test imports this list in Node).
 */
import './ui/foundation';
import './ui/steering';
import './ui/murmuration';
import './ui/astar';
import './ui/horde';
import './ui/orca';
import './ui/rts';
import './ui/contacts';
