// `npm start`: bundle the demo page with esbuild and serve demos/ on localhost, rebuilding on change.
// PORT=8080 by default; HOST=127.0.0.1 by default. Prints the URL to open.
import * as esbuild from 'esbuild';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const ctx = await esbuild.context({
  entryPoints: ['demos/app.ts'],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  outdir: 'demos/build',
  sourcemap: true,
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"development"' },
});
await ctx.watch();
const { port: actual } = await ctx.serve({ servedir: 'demos', port, host });
console.log(`Murmur demos: http://${host === '0.0.0.0' ? 'localhost' : host}:${actual}/`);
console.log('(default scenario: wander, 20,000 agents; Ctrl+C to stop)');
