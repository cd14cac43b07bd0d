/**
 * Instanced WebGL agent renderer: one draw call for every agent. Each agent is an instance of a unit quad; the
 * per-instance attributes are its previous and current position, its radius and its colour, and the vertex shader
 * interpolates previous → current with the fixed-step alpha (a uniform), so the page renders smoothly between
 * simulation steps without touching the positions on the CPU.
 *
 * Works on WebGL2 (instancing is core) and on WebGL1 with ANGLE_instanced_arrays; the shaders are GLSL ES 1.00,
 * which both accept. Under `--disable-gpu` Chromium runs this on SwiftShader (software), which is what the browser
 * test measures. Returns null when neither context is available: the page then falls back to render-canvas.ts.
 *
 * Per frame the CPU packs 5 floats and 4 bytes per live agent into preallocated buffers and uploads them with one
 * bufferSubData each; buffers grow (doubling) only when the agent count exceeds their capacity.
 */
import type { CrowdWorld } from '../src/world/crowd';
import type { DemoView } from './registry';

export interface AgentRenderer {
  readonly kind: 'webgl2' | 'webgl1' | 'canvas';
  readonly canvas: HTMLCanvasElement;
  /** The GPU (or software rasteriser) as reported by WebGL; '' for the canvas renderer. */
  readonly gpu: string;
  /** Draw every live agent, interpolated by `alpha` between its previous and current position. */
  draw(world: CrowdWorld, view: DemoView, alpha: number, colorOf: ((eid: number) => number) | undefined): void;
}

const VERTEX = `
attribute vec2 a_corner;
attribute vec4 a_pos;      // previous x, y, current x, y (world metres)
attribute float a_radius;  // metres
attribute vec4 a_color;
uniform float u_alpha;
uniform vec2 u_center;     // world point at the middle of the viewport
uniform vec2 u_toClip;     // world metres -> clip units (2*scale/width, 2*scale/height)
uniform float u_pixel;     // metres per pixel
varying vec2 v_uv;
varying vec4 v_color;
varying float v_rpx;
void main() {
  vec2 p = mix(a_pos.xy, a_pos.zw, u_alpha);
  // Never smaller than one pixel across, so a zoomed-out crowd stays visible.
  float r = max(a_radius, 0.75 * u_pixel);
  v_uv = a_corner;
  v_color = a_color;
  v_rpx = r / u_pixel;
  gl_Position = vec4((p + a_corner * r - u_center) * u_toClip, 0.0, 1.0);
}`;

const FRAGMENT = `
precision mediump float;
varying vec2 v_uv;
varying vec4 v_color;
varying float v_rpx;
void main() {
  float d = length(v_uv);
  // Anti-aliased disc edge one pixel wide; tiny agents (under ~2 px) are drawn as their full quad.
  float a = v_rpx < 1.5 ? 1.0 : clamp((1.0 - d) * v_rpx, 0.0, 1.0);
  if (a <= 0.0) discard;
  // A darker rim shows individual agents in a dense crowd.
  float rim = v_rpx > 4.0 && d > 1.0 - 1.5 / v_rpx ? 0.55 : 1.0;
  gl_FragColor = vec4(v_color.rgb * rim * a, a);
}`;

type GL = WebGLRenderingContext | WebGL2RenderingContext;

function compile(gl: GL, type: number, src: string): WebGLShader {
  const s = gl.createShader(type)!;
  gl.shaderSource(s, src);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`shader: ${gl.getShaderInfoLog(s)}`);
  return s;
}

/** Default colour by speed: blue at rest → warm at max speed (0xRRGGBB). */
export function speedColor(world: CrowdWorld, eid: number): number {
  const vx = world.velocity.x[eid], vy = world.velocity.y[eid];
  const s = Math.min(1, Math.sqrt(vx * vx + vy * vy) / Math.max(1e-6, world.agent.maxSpeed[eid]));
  return (((80 + 175 * s) & 255) << 16) | (((160 + 60 * (1 - s)) & 255) << 8) | 230;
}

/**
 * The GPU behind a WebGL context as the browser reports it ("ANGLE (..., SwiftShader Device ...)"), or '' when hidden.
 */
export function glRendererName(gl: WebGLRenderingContext | WebGL2RenderingContext): string {
  const dbg = gl.getExtension('WEBGL_debug_renderer_info');
  return String(dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
}

/** True for CPU rasterisers (SwiftShader, llvmpipe, Microsoft Basic Render): no GPU behind WebGL. */
export function isSoftwareGl(name: string): boolean {
  return /swiftshader|llvmpipe|softpipe|basic render/i.test(name);
}

/**
 * Create the instanced renderer on `canvas`, or return null (WebGL or instancing unavailable, shader failure, or a
 * software rasteriser when `allowSoftware` is false: measured 2026-11-29 in headless Chromium with --disable-gpu,
 * SwiftShader draws 20,000 instances at ~2.5 fps, its per-instance cost being far above a CPU disc fill, while the
 * ImageData canvas path draws 50,000 agents in a few milliseconds, so on a software rasteriser the page uses that).
 */
export function createGlRenderer(canvas: HTMLCanvasElement, allowSoftware = false): AgentRenderer | null {
  const opts: WebGLContextAttributes = { antialias: false, premultipliedAlpha: true, alpha: true, preserveDrawingBuffer: false };
  let gl: GL | null = canvas.getContext('webgl2', opts) as WebGL2RenderingContext | null;
  let kind: 'webgl2' | 'webgl1' = 'webgl2';
  let divisor: (index: number, d: number) => void;
  let drawInstanced: (mode: number, first: number, count: number, instances: number) => void;
  if (gl) {
    const g2 = gl as WebGL2RenderingContext;
    divisor = (i, d) => g2.vertexAttribDivisor(i, d);
    drawInstanced = (m, f, c, n) => g2.drawArraysInstanced(m, f, c, n);
  } else {
    gl = canvas.getContext('webgl', opts) as WebGLRenderingContext | null;
    if (!gl) return null;
    const ext = gl.getExtension('ANGLE_instanced_arrays');
    if (!ext) return null;
    kind = 'webgl1';
    divisor = (i, d) => ext.vertexAttribDivisorANGLE(i, d);
    drawInstanced = (m, f, c, n) => ext.drawArraysInstancedANGLE(m, f, c, n);
  }
  const g = gl;
  const gpu = glRendererName(g);
  if (!allowSoftware && isSoftwareGl(gpu)) {
    console.info(`WebGL runs on a software rasteriser (${gpu}): using the canvas renderer (force WebGL with ?renderer=webgl)`);
    g.getExtension('WEBGL_lose_context')?.loseContext();
    return null;
  }

  let program: WebGLProgram;
  try {
    program = g.createProgram()!;
    g.attachShader(program, compile(g, g.VERTEX_SHADER, VERTEX));
    g.attachShader(program, compile(g, g.FRAGMENT_SHADER, FRAGMENT));
    g.linkProgram(program);
    if (!g.getProgramParameter(program, g.LINK_STATUS)) throw new Error(`link: ${g.getProgramInfoLog(program)}`);
  } catch (e) {
    console.warn(`WebGL renderer unavailable (${(e as Error).message}); using the canvas renderer`);
    return null;
  }
  g.useProgram(program);
  const aCorner = g.getAttribLocation(program, 'a_corner');
  const aPos = g.getAttribLocation(program, 'a_pos');
  const aRadius = g.getAttribLocation(program, 'a_radius');
  const aColor = g.getAttribLocation(program, 'a_color');
  const uAlpha = g.getUniformLocation(program, 'u_alpha');
  const uCenter = g.getUniformLocation(program, 'u_center');
  const uToClip = g.getUniformLocation(program, 'u_toClip');
  const uPixel = g.getUniformLocation(program, 'u_pixel');

  const cornerBuf = g.createBuffer();
  g.bindBuffer(g.ARRAY_BUFFER, cornerBuf);
  g.bufferData(g.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), g.STATIC_DRAW);
  g.enableVertexAttribArray(aCorner);
  g.vertexAttribPointer(aCorner, 2, g.FLOAT, false, 0, 0);
  divisor(aCorner, 0);

  const instBuf = g.createBuffer();
  const colorBuf = g.createBuffer();
  const STRIDE = 5; // floats per instance: prevX, prevY, x, y, radius
  let capacity = 0;
  let inst = new Float32Array(0);
  let colors = new Uint32Array(0);

  function ensure(n: number): void {
    if (n <= capacity) return;
    capacity = Math.max(1024, capacity);
    while (capacity < n) capacity *= 2;
    inst = new Float32Array(capacity * STRIDE);
    colors = new Uint32Array(capacity);
    g.bindBuffer(g.ARRAY_BUFFER, instBuf);
    g.bufferData(g.ARRAY_BUFFER, inst.byteLength, g.DYNAMIC_DRAW);
    g.bindBuffer(g.ARRAY_BUFFER, colorBuf);
    g.bufferData(g.ARRAY_BUFFER, colors.byteLength, g.DYNAMIC_DRAW);
  }

  g.bindBuffer(g.ARRAY_BUFFER, instBuf);
  g.enableVertexAttribArray(aPos);
  g.enableVertexAttribArray(aRadius);
  g.enableVertexAttribArray(aColor);
  g.enable(g.BLEND);
  g.blendFunc(g.ONE, g.ONE_MINUS_SRC_ALPHA);

  return {
    kind,
    canvas,
    gpu,
    draw(world, view, alpha, colorOf) {
      const w = view.width | 0, h = view.height | 0;
      if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
      g.viewport(0, 0, w, h);
      g.clearColor(0, 0, 0, 0);
      g.clear(g.COLOR_BUFFER_BIT);
      const { dense, count } = world.agents;
      if (count === 0) return;
      ensure(count);
      const X = world.position.x, Y = world.position.y, PX = world.position.previousX, PY = world.position.previousY;
      const R = world.agent.radius;
      for (let i = 0, o = 0; i < count; i++, o += STRIDE) {
        const eid = dense[i];
        inst[o] = PX[eid]; inst[o + 1] = PY[eid]; inst[o + 2] = X[eid]; inst[o + 3] = Y[eid]; inst[o + 4] = R[eid];
        const rgb = colorOf ? colorOf(eid) : speedColor(world, eid);
        // RGBA bytes in memory order on a little-endian machine: 0xAABBGGRR.
        colors[i] = 0xff000000 | ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >>> 16) & 0xff);
      }
      g.useProgram(program);
      g.bindBuffer(g.ARRAY_BUFFER, instBuf);
      g.bufferSubData(g.ARRAY_BUFFER, 0, inst.subarray(0, count * STRIDE));
      g.vertexAttribPointer(aPos, 4, g.FLOAT, false, STRIDE * 4, 0);
      g.vertexAttribPointer(aRadius, 1, g.FLOAT, false, STRIDE * 4, 16);
      divisor(aPos, 1);
      divisor(aRadius, 1);
      g.bindBuffer(g.ARRAY_BUFFER, colorBuf);
      g.bufferSubData(g.ARRAY_BUFFER, 0, colors.subarray(0, count));
      g.vertexAttribPointer(aColor, 4, g.UNSIGNED_BYTE, true, 4, 0);
      divisor(aColor, 1);
      g.uniform1f(uAlpha, alpha);
      g.uniform2f(uCenter, view.cx, view.cy);
      g.uniform2f(uToClip, (2 * view.scale) / w, (2 * view.scale) / h);
      g.uniform1f(uPixel, 1 / view.scale);
      drawInstanced(g.TRIANGLE_STRIP, 0, 4, count);
    },
  };
}
