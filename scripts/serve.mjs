// `npm start`: bundle the demo page with esbuild (rebuilding on change) and serve it on localhost.
// PORT=8080 and HOST=127.0.0.1 by default. Prints the URL to open.
//
// esbuild's server serves one folder (demos/), but the A* explorer reads Moving AI maps that live outside the repo
// in ../shared/data/maps (never copied in). So a small Node server in front answers /maps/<name> from that folder
// and forwards every other request to esbuild.
import * as esbuild from 'esbuild';
import http from 'node:http';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const MAPS_DIR = resolve(root, '../shared/data/maps');

/**
 * Start the demo server. Returns { url, close }. `port: 0` picks a free port. `watch: false` builds once (tests).
 */
export async function startServer({ port = 8080, host = '127.0.0.1', watch = true, logLevel = 'warning' } = {}) {
  const ctx = await esbuild.context({
    entryPoints: [join(root, 'demos/app.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outdir: join(root, 'demos/build'),
    sourcemap: true,
    logLevel,
    // Code that reads process.env (libraries, or a tuning knob in the engine) sees an empty environment in the
    // browser instead of throwing "process is not defined".
    define: { 'process.env.NODE_ENV': '"development"', 'process.env': '{}' },
  });
  if (watch) await ctx.watch();
  const inner = await ctx.serve({ servedir: join(root, 'demos'), host: '127.0.0.1', port: 0 });

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/maps/' || url.pathname === '/maps') {
      // List of the available maps (JSON), for the A* explorer's map menu.
      const names = existsSync(MAPS_DIR) ? readdirSync(MAPS_DIR).filter((f) => f.endsWith('.map')).sort() : [];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(names));
      return;
    }
    if (url.pathname.startsWith('/maps/')) {
      const name = decodeURIComponent(url.pathname.slice('/maps/'.length));
      // Plain file names only: no path separators, no dot-dot.
      const file = join(MAPS_DIR, name);
      if (!/^[\w.-]+$/.test(name) || name.includes('..') || !existsSync(file) || !statSync(file).isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end(`no map '${name}' in ${MAPS_DIR}\n`);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
      createReadStream(file).pipe(res);
      return;
    }
    const fwd = http.request(
      { host: '127.0.0.1', port: inner.port, path: req.url, method: req.method, headers: req.headers },
      (r) => { res.writeHead(r.statusCode ?? 502, r.headers); r.pipe(res); },
    );
    fwd.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
    req.pipe(fwd);
  });
  try {
    await new Promise((ok, fail) => { server.once('error', fail); server.listen(port, host, ok); });
  } catch (e) {
    await ctx.dispose();
    if (e.code === 'EADDRINUSE') throw new Error(`port ${port} on ${host} is in use: try PORT=${port + 1} npm start`);
    throw e;
  }
  const actual = server.address().port;
  return {
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${actual}/`,
    async close() {
      await new Promise((ok) => server.close(ok));
      server.closeAllConnections?.();
      await ctx.dispose();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let url;
  try {
    ({ url } = await startServer({ port: Number(process.env.PORT ?? 8080), host: process.env.HOST ?? '127.0.0.1' }));
  } catch (e) {
    console.error(`murmur demos: ${e.message}`);
    process.exit(1);
  }
  console.log(`Murmur demos: ${url}`);
  console.log('(pick a demo on the left; Ctrl+C to stop)');
}
