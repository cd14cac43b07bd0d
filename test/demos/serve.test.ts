/**
 * The demo server (scripts/serve.mjs): the page and its bundle through esbuild, the Moving AI maps from
 * ../shared/data/maps at /maps/ (listed as JSON, served as text), and nothing outside that folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(__dirname, '../..');
const mapsDir = resolve(root, '../shared/data/maps');
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  const serve = await import(/* @vite-ignore */ pathToFileURL(join(root, 'scripts/serve.mjs')).href);
  server = await serve.startServer({ port: 0, watch: false });
});
afterAll(async () => { await server?.close(); });

describe('startServer', () => {
  it('serves the page and the bundled app', async () => {
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="build/app.js">');
    const app = await fetch(`${server.url}build/app.js`);
    expect(app.status).toBe(200);
    expect((await app.text()).length).toBeGreaterThan(10_000);
  });

  it('lists and serves the shared Moving AI maps at /maps/', async () => {
    if (!existsSync(mapsDir)) return;
    const list = await (await fetch(`${server.url}maps/`)).json();
    expect(list).toContain('arena.map');
    const map = await fetch(`${server.url}maps/arena.map`);
    expect(map.status).toBe(200);
    expect((await map.text()).startsWith('type octile')).toBe(true);
  });

  it('answers 404 for unknown maps and for any path outside the maps folder', async () => {
    expect((await fetch(`${server.url}maps/no-such.map`)).status).toBe(404);
    expect((await fetch(`${server.url}maps/..%2F..%2Fmain%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${server.url}maps/%2Fetc%2Fpasswd`)).status).toBe(404);
  });
});
