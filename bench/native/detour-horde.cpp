// DetourCrowd (recastnavigation) on the 25,000-agent horde of bench/horde.ts (bench/native/README.md): the same city
// (square buildings 20 m wide, streets 12 m, the plaza in the east), the same spawn positions, speeds and
// accelerations (export-scenes.ts), one goal in the plaza, dt = 1/30 s. The navmesh is built directly from the
// street network (no voxelisation): the free space eroded by the agent radius is a union of axis-aligned
// rectangles, cut into the grid of rectangles between all wall lines, each an exact convex quad of the mesh.
// Agents use the settings of RecastDemo's crowd tool (anticipate turns, visibility and topology optimisation,
// obstacle avoidance, separation weight 2), with a collision query range of 3 m (Murmur's ORCA neighbour distance
// in this scene; DetourCrowd takes at most 6 neighbours, as Murmur's horde does). The timed figure is
// dtCrowd::update per frame, median over 120 frames after 30 warm-up frames.
// Build: g++ -O3 -march=native -I<recast>/Detour/Include -I<recast>/DetourCrowd/Include detour-horde.cpp \
//          <recast>/Detour/Source/*.cpp <recast>/DetourCrowd/Source/*.cpp -o detour-horde
// Run: ./detour-horde <folder> <horde-10k | horde-25k> [avoidance preset 0-3, default 3 = RecastDemo's "high"]
//        [agents: the first N only, default and at most 16,383, DetourCrowd's limit: see below]
#include <DetourCrowd.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
using namespace std;

static const double CELL = 2, BLOCK = 10, STREET = 6, PERIOD = BLOCK + STREET; // demos/scenarios/horde.ts
static const float CS = 0.05f; // navmesh vertex quantum (m); the radius 0.35 m is 7 quanta

static double nowMs() { return chrono::duration<double, milli>(chrono::steady_clock::now().time_since_epoch()).count(); }

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: detour-horde <folder> <scene: horde-10k | horde-25k> [quality] [agents]\n"); return 2; }
  const int quality = argc > 3 ? atoi(argv[3]) : 3;
  setvbuf(stdout, nullptr, _IOLBF, 0);
  FILE* f = fopen((string(argv[1]) + "/" + argv[2] + ".bin").c_str(), "rb");
  if (!f) { fprintf(stderr, "run export-scenes.ts first\n"); return 2; }
  double head[5]; if (fread(head, 8, 5, f) != 5) return 2;
  // DetourCrowd keeps its proximity grid's item pool (4 items per agent) in 16-bit indices: beyond 16,383 agents
  // the indices wrap and a query loops for good (seen at 25,000 agents after 26 frames); the default caps there.
  const int n = min(argc > 4 ? atoi(argv[4]) : 16383, (int)head[0]); const double size = head[1], gx = head[2], gy = head[3], r = head[4];
  vector<double> ag(4 * (size_t)head[0]); if (fread(ag.data(), 8, ag.size(), f) != ag.size()) return 2; fclose(f);
  const int cells = (int)llround(size / CELL), blocks = (int)llround((cells - STREET) / PERIOD);
  const int plazaBx0 = blocks - 2, plazaBy0 = blocks / 2 - 1;
  auto isBuilding = [&](int bx, int by) { return !(bx >= plazaBx0 && by >= plazaBy0 && by <= plazaBy0 + 2); };

  // ---- the mesh: wall lines in quanta (outer walls and every building side, moved inward/outward by r) ----
  const int R = (int)llround(r / CS);
  vector<int> lines; lines.push_back(R); lines.push_back((int)llround(size / CS) - R);
  for (int b = 0; b < blocks; b++) {
    const int a0 = (int)llround((STREET + b * PERIOD) * CELL / CS), a1 = (int)llround((STREET + b * PERIOD + BLOCK) * CELL / CS);
    lines.push_back(a0 - R); lines.push_back(a1 + R);
  }
  sort(lines.begin(), lines.end()); lines.erase(unique(lines.begin(), lines.end()), lines.end());
  const int L = (int)lines.size(), C = L - 1; // C x C rectangles between consecutive lines
  // a rectangle is walkable unless it lies inside a building dilated by r
  auto walkable = [&](int i, int j) {
    const double cx = 0.5 * (lines[i] + lines[i + 1]) * CS, cy = 0.5 * (lines[j] + lines[j + 1]) * CS;
    for (int by = 0; by < blocks; by++) for (int bx = 0; bx < blocks; bx++) {
      if (!isBuilding(bx, by)) continue;
      const double x0 = (STREET + bx * PERIOD) * CELL - r, x1 = (STREET + bx * PERIOD + BLOCK) * CELL + r;
      const double y0 = (STREET + by * PERIOD) * CELL - r, y1 = (STREET + by * PERIOD + BLOCK) * CELL + r;
      if (cx > x0 && cx < x1 && cy > y0 && cy < y1) return false;
    }
    return true;
  };
  vector<int> polyOf(C * C, -1); int np = 0;
  for (int j = 0; j < C; j++) for (int i = 0; i < C; i++) if (walkable(i, j)) polyOf[j * C + i] = np++;
  // vertices: the line crossings, Detour's (x, y, z) = (Murmur x, 0, Murmur y)
  vector<unsigned short> verts(3 * L * L);
  for (int j = 0; j < L; j++) for (int i = 0; i < L; i++) { verts[3 * (j * L + i)] = lines[i]; verts[3 * (j * L + i) + 1] = 0; verts[3 * (j * L + i) + 2] = lines[j]; }
  const int nvp = 4; const unsigned short NUL = 0xffff;
  vector<unsigned short> polys(2 * nvp * np, NUL), flags(np, 1); vector<unsigned char> areas(np, 0);
  for (int j = 0; j < C; j++) for (int i = 0; i < C; i++) {
    const int p = polyOf[j * C + i]; if (p < 0) continue;
    unsigned short* q = &polys[2 * nvp * p];
    // corners (i, j), (i, j+1), (i+1, j+1), (i+1, j): clockwise seen from +y (Detour's up) with x right, z down;
    // edge k runs from corner k to corner k+1, its neighbour across it in q[nvp + k]
    q[0] = j * L + i; q[1] = (j + 1) * L + i; q[2] = (j + 1) * L + i + 1; q[3] = j * L + i + 1;
    auto nb = [&](int ii, int jj) -> unsigned short { return ii < 0 || jj < 0 || ii >= C || jj >= C || polyOf[jj * C + ii] < 0 ? NUL : (unsigned short)polyOf[jj * C + ii]; };
    q[nvp + 0] = nb(i - 1, j); q[nvp + 1] = nb(i, j + 1); q[nvp + 2] = nb(i + 1, j); q[nvp + 3] = nb(i, j - 1);
  }
  dtNavMeshCreateParams cp = {};
  cp.verts = verts.data(); cp.vertCount = L * L; cp.polys = polys.data(); cp.polyFlags = flags.data(); cp.polyAreas = areas.data();
  cp.polyCount = np; cp.nvp = nvp; cp.walkableHeight = 2; cp.walkableRadius = (float)r; cp.walkableClimb = 0.5f;
  cp.cs = CS; cp.ch = CS; cp.buildBvTree = true;
  cp.bmin[0] = 0; cp.bmin[1] = 0; cp.bmin[2] = 0; cp.bmax[0] = (float)size; cp.bmax[1] = 1; cp.bmax[2] = (float)size;
  unsigned char* data = nullptr; int dataSize = 0;
  if (!dtCreateNavMeshData(&cp, &data, &dataSize)) { fprintf(stderr, "dtCreateNavMeshData failed\n"); return 1; }
  dtNavMesh* nav = dtAllocNavMesh();
  if (dtStatusFailed(nav->init(data, dataSize, DT_TILE_FREE_DATA))) { fprintf(stderr, "navmesh init failed\n"); return 1; }
  dtNavMeshQuery* q = dtAllocNavMeshQuery(); q->init(nav, 65535);
  dtQueryFilter filter; const float ext[3] = { 2, 2, 2 };

  // sanity check of the mesh: a path from the first agent to the goal, its straight-path length against the
  // straight line (>=) and its corners inside the city
  dtPolyRef goalRef; float goal[3] = { (float)gx, 0, (float)gy }, goalOn[3];
  q->findNearestPoly(goal, ext, &filter, &goalRef, goalOn);
  {
    float s[3] = { (float)ag[0], 0, (float)ag[1] }, sOn[3]; dtPolyRef sRef; q->findNearestPoly(s, ext, &filter, &sRef, sOn);
    static dtPolyRef path[4096]; int npath = 0; q->findPath(sRef, goalRef, sOn, goalOn, &filter, path, &npath, 4096);
    static float sp[3 * 512]; int ns = 0; q->findStraightPath(sOn, goalOn, path, npath, sp, nullptr, nullptr, &ns, 512);
    double len = 0; for (int k = 1; k < ns; k++) len += hypot(sp[3 * k] - sp[3 * k - 3], sp[3 * k + 2] - sp[3 * k - 1]);
    printf("navmesh: %d quads, %d vertices; agent 0 to the goal: %d polygons, %d corners, %.1f m (straight line %.1f m)\n",
      np, L * L, npath, ns, len, hypot(gx - ag[0], gy - ag[1]));
  }

  const double tSetup = nowMs();
  dtCrowd* crowd = dtAllocCrowd();
  crowd->init(n, (float)r, nav);
  // RecastDemo's crowd tool presets: 0 low (5 divs, 2 rings, depth 1), 1 medium (5, 2, 2), 2 good (7, 2, 3), 3 high (7, 3, 3)
  const unsigned char presets[4][3] = { { 5, 2, 1 }, { 5, 2, 2 }, { 7, 2, 3 }, { 7, 3, 3 } };
  dtObstacleAvoidanceParams op = *crowd->getObstacleAvoidanceParams(0);
  op.adaptiveDivs = presets[quality][0]; op.adaptiveRings = presets[quality][1]; op.adaptiveDepth = presets[quality][2];
  op.horizTime = 2; // Murmur's ORCA time horizon in this scene
  crowd->setObstacleAvoidanceParams(0, &op);
  for (int i = 0; i < n; i++) {
    dtCrowdAgentParams p = {};
    p.radius = (float)r; p.height = 2; p.maxAcceleration = (float)ag[4 * i + 3]; p.maxSpeed = (float)ag[4 * i + 2];
    p.collisionQueryRange = 3; p.pathOptimizationRange = (float)(r * 30); p.separationWeight = 2;
    p.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO | DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
    p.obstacleAvoidanceType = 0;
    const float pos[3] = { (float)ag[4 * i], 0, (float)ag[4 * i + 1] };
    const int idx = crowd->addAgent(pos, &p);
    if (idx < 0) { fprintf(stderr, "addAgent %d failed\n", i); return 1; }
    crowd->requestMoveTarget(idx, goalRef, goalOn);
  }
  fprintf(stderr, "crowd set up in %.0f ms\n", nowMs() - tSetup);
  const float dt = 1.0f / 30;
  vector<double> t;
  for (int fr = 0; fr < 150; fr++) {
    const double t0 = nowMs(); crowd->update(dt, nullptr); const double t1 = nowMs();
    if (fr >= 30) t.push_back(t1 - t0);
    if (getenv("DETOUR_VERBOSE")) {
      int bad = 0, first = -1; double far = 0;
      for (int i = 0; i < n; i++) { const float* p = crowd->getAgent(i)->npos; if (!(fabs(p[0]) < 1e5 && fabs(p[2]) < 1e5)) { bad++; if (first < 0) first = i; } else far = max(far, (double)max(fabs(p[0]), fabs(p[2]))); }
      fprintf(stderr, "frame %d: %.1f ms, %d agents off the map (first %d), max |coord| %.1f\n", fr, t1 - t0, bad, first, far);
    }
  }
  int valid = 0, moving = 0; double meanSpeed = 0;
  for (int i = 0; i < n; i++) {
    const dtCrowdAgent* a = crowd->getAgent(i);
    if (a->targetState == DT_CROWDAGENT_TARGET_VALID) valid++;
    const double s = hypot(a->vel[0], a->vel[2]); meanSpeed += s; if (s > 0.1) moving++;
  }
  sort(t.begin(), t.end());
  printf("DetourCrowd, %d agents, avoidance preset %d (%d divs, %d rings, depth %d): dtCrowd::update median %.1f ms, min %.1f, max %.1f (frames 30-149); at frame 150 %d agents with a full path, %d moving, mean speed %.2f m/s\n",
    n, quality, op.adaptiveDivs, op.adaptiveRings, op.adaptiveDepth, t[t.size() / 2], t[0], t.back(), valid, moving, meanSpeed / n);
  return 0;
}
