/** Colour helpers for the demos (0xRRGGBB). */

/** Hue in turns [0, 1) → saturated RGB (HSV with s = 0.65, v = 0.95). */
export function hueColor(turns: number): number {
  const h = ((turns % 1) + 1) % 1 * 6;
  const i = Math.floor(h), f = h - i;
  const v = 242, p = Math.round(v * 0.35), q = Math.round(v * (1 - 0.65 * f)), t = Math.round(v * (1 - 0.65 * (1 - f)));
  const [r, g, b] = [[v, t, p], [q, v, p], [p, v, t], [p, q, v], [t, p, v], [v, p, q]][i % 6];
  return (r << 16) | (g << 8) | b;
}

/** Heading hue of a velocity (drawing only, so Math.atan2 is fine here). */
export function headingColor(vx: number, vy: number): number {
  return hueColor(Math.atan2(vy, vx) / (2 * Math.PI) + 0.5);
}

export const TIER_COLORS = [0x59a14f, 0xedc948, 0x4e79a7];
