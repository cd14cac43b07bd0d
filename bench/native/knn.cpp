// Native baselines for the k-nearest frame of issues 2 and 5 (bench/native/README.md): rebuild + the k nearest
// within r of every agent, on the scenes bench/native/export-scenes.ts writes, each checked against Murmur's answer.
//   grid block: counting sort into cells (bounds recomputed each frame), then for each agent in cell order the
//               (2s+1)² cells around it, s = ceil(r / cell), each row of cells one contiguous run, into a bounded
//               sorted list by insertion (the list's k-th distance shrinks the search once it is full);
//   grid ring:  the same grid, searched ring by ring outward until the k-th distance is inside the searched square;
//   nanoflann:  its kd-tree (build + knnSearch of k + 1 per agent, the agent itself dropped), with -DWITH_NANOFLANN.
// Build: g++ -O3 -march=native -std=c++17 [-DWITH_NANOFLANN -I<nanoflann>/include] knn.cpp -o knn
// Run:   ./knn <folder> <scene>     (scene: spatial-k10 or boids-k7)
#ifdef WITH_NANOFLANN
#include <nanoflann.hpp>
#endif
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
using namespace std;

static const int KMAX = 16;
static int n, K; static double R, CELL;
static vector<double> pos; static vector<int> refIds, refCounts, outIds, outCounts;

static double nowMs() { return chrono::duration<double, milli>(chrono::steady_clock::now().time_since_epoch()).count(); }
static void readFile(const string& p, void* dst, size_t bytes) {
  FILE* f = fopen(p.c_str(), "rb"); if (!f) { fprintf(stderr, "cannot open %s\n", p.c_str()); exit(2); }
  if (fread(dst, 1, bytes, f) != bytes) { fprintf(stderr, "short read %s\n", p.c_str()); exit(2); } fclose(f);
}
static long mismatches() {
  long bad = 0;
  for (int i = 0; i < n; i++) {
    if (outCounts[i] != refCounts[i]) { bad++; continue; }
    for (int j = 0; j < outCounts[i]; j++) if (outIds[i * K + j] != refIds[i * K + j]) { bad++; break; }
  }
  return bad;
}
static void report(const char* what, vector<double>& t) {
  sort(t.begin(), t.end());
  printf("%-46s median %8.2f ms  min %8.2f  max %8.2f  (agents whose neighbours differ from Murmur's: %ld)\n", what, t[t.size() / 2], t[0], t.back(), mismatches());
}

// ---- the grid ----
struct Grid { int W = 0, H = 0; double x0 = 0, y0 = 0, inv = 0; vector<int> start, cur, cellOf, sorted; vector<double> sx, sy; };
static void rebuild(Grid& g) {
  double mnx = 1e300, mny = 1e300, mxx = -1e300, mxy = -1e300;
  for (int i = 0; i < n; i++) { double x = pos[2 * i], y = pos[2 * i + 1]; mnx = min(mnx, x); mny = min(mny, y); mxx = max(mxx, x); mxy = max(mxy, y); }
  g.inv = 1 / CELL; g.x0 = mnx; g.y0 = mny; g.W = (int)((mxx - mnx) * g.inv) + 1; g.H = (int)((mxy - mny) * g.inv) + 1;
  const int cells = g.W * g.H;
  g.start.assign(cells + 1, 0); g.cur.resize(cells); g.cellOf.resize(n); g.sorted.resize(n); g.sx.resize(n); g.sy.resize(n);
  for (int i = 0; i < n; i++) {
    int c = (int)((pos[2 * i + 1] - g.y0) * g.inv) * g.W + (int)((pos[2 * i] - g.x0) * g.inv);
    g.cellOf[i] = c; g.start[c + 1]++;
  }
  for (int c = 0; c < cells; c++) g.start[c + 1] += g.start[c];
  for (int c = 0; c < cells; c++) g.cur[c] = g.start[c];
  for (int i = 0; i < n; i++) { int s = g.cur[g.cellOf[i]]++; g.sorted[s] = i; g.sx[s] = pos[2 * i]; g.sy[s] = pos[2 * i + 1]; }
}
// scan slots [a, b) into the bounded list (bd, bi, m) with limit lim
static inline void scanRun(const Grid& g, int a, int b, int self, double x, double y, double* bd, int* bi, int& m, double& lim) {
  for (int t = a; t < b; t++) {
    double dx = g.sx[t] - x, dy = g.sy[t] - y, d = dx * dx + dy * dy;
    if (d <= lim && t != self) {
      int j = m < K ? m++ : K - 1;
      while (j > 0 && bd[j - 1] > d) { bd[j] = bd[j - 1]; bi[j] = bi[j - 1]; j--; }
      bd[j] = d; bi[j] = g.sorted[t];
      if (m == K) lim = bd[K - 1];
    }
  }
}
static void queryBlock(const Grid& g) {
  const int s = (int)ceil(R / CELL);
  for (int t = 0; t < n; t++) {
    const int id = g.sorted[t], c = g.cellOf[id], cx = c % g.W, cy = c / g.W;
    const double x = g.sx[t], y = g.sy[t];
    double bd[KMAX]; int bi[KMAX]; int m = 0; double lim = R * R;
    const int xa = max(0, cx - s), xb = min(g.W - 1, cx + s);
    for (int yy = max(0, cy - s); yy <= min(g.H - 1, cy + s); yy++) scanRun(g, g.start[yy * g.W + xa], g.start[yy * g.W + xb + 1], t, x, y, bd, bi, m, lim);
    outCounts[id] = m; for (int j = 0; j < m; j++) outIds[id * K + j] = bi[j];
  }
}
static void queryRing(const Grid& g) {
  for (int t = 0; t < n; t++) {
    const int id = g.sorted[t], c = g.cellOf[id], cx = c % g.W, cy = c / g.W;
    const double x = g.sx[t], y = g.sy[t];
    double bd[KMAX]; int bi[KMAX]; int m = 0; double lim = R * R;
    // distance from the point to its own cell's border: after ring rho, every unsearched point is at least
    // rho * cell + gap away
    const double lx = x - (g.x0 + cx * CELL), ly = y - (g.y0 + cy * CELL);
    const double gap = min(min(lx, CELL - lx), min(ly, CELL - ly));
    for (int rho = 0;; rho++) {
      const int xa = max(0, cx - rho), xb = min(g.W - 1, cx + rho);
      for (int yy = cy - rho; yy <= cy + rho; yy++) {
        if (yy < 0 || yy >= g.H) continue;
        if (yy == cy - rho || yy == cy + rho) scanRun(g, g.start[yy * g.W + xa], g.start[yy * g.W + xb + 1], t, x, y, bd, bi, m, lim);
        else {
          if (cx - rho >= 0) { int q = yy * g.W + cx - rho; scanRun(g, g.start[q], g.start[q + 1], t, x, y, bd, bi, m, lim); }
          if (cx + rho < g.W) { int q = yy * g.W + cx + rho; scanRun(g, g.start[q], g.start[q + 1], t, x, y, bd, bi, m, lim); }
        }
      }
      const double reach = rho * CELL + gap;
      if (reach * reach >= lim || (rho > g.W && rho > g.H)) break;
    }
    outCounts[id] = m; for (int j = 0; j < m; j++) outIds[id * K + j] = bi[j];
  }
}

#ifdef WITH_NANOFLANN
struct Cloud {
  size_t kdtree_get_point_count() const { return (size_t)n; }
  double kdtree_get_pt(size_t i, size_t d) const { return pos[2 * i + d]; }
  template <class B> bool kdtree_get_bbox(B&) const { return false; }
};
typedef nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<double, Cloud>, Cloud, 2, uint32_t> Tree;
#endif

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: knn <folder> <scene>\n"); return 2; }
  const string base = string(argv[1]) + "/" + argv[2];
  double head[4]; readFile(base + ".pos.bin", head, sizeof head);
  n = (int)head[0]; K = (int)head[1]; R = head[2]; CELL = head[3];
  if (K > KMAX) { fprintf(stderr, "k > %d\n", KMAX); return 2; }
  vector<double> all(4 + 2 * (size_t)n); readFile(base + ".pos.bin", all.data(), all.size() * 8);
  pos.assign(all.begin() + 4, all.end());
  refIds.resize((size_t)n * K); refCounts.resize(n); outIds.resize((size_t)n * K); outCounts.resize(n);
  readFile(base + ".ids.bin", refIds.data(), refIds.size() * 4); readFile(base + ".counts.bin", refCounts.data(), refCounts.size() * 4);
  printf("%s: %d agents, k = %d within %.3g m, cell %.3g m, 21 frames each\n", argv[2], n, K, R, CELL);
  const int frames = 21;
  Grid g;
  for (int mode = 0; mode < 2; mode++) {
    vector<double> t;
    for (int f = 0; f < frames + 2; f++) {
      double t0 = nowMs(); rebuild(g); if (mode == 0) queryBlock(g); else queryRing(g);
      if (f >= 2) t.push_back(nowMs() - t0);
    }
    report(mode == 0 ? "grid block (rebuild + query)" : "grid ring search (rebuild + query)", t);
  }
#ifdef WITH_NANOFLANN
  {
    vector<double> t; Cloud cloud;
    for (int f = 0; f < frames; f++) {
      double t0 = nowMs();
      Tree tree(2, cloud, nanoflann::KDTreeSingleIndexAdaptorParams(10));
      uint32_t idx[KMAX + 1]; double d2[KMAX + 1];
      for (int i = 0; i < n; i++) {
        size_t got = tree.knnSearch(&pos[2 * i], K + 1, idx, d2);
        int m = 0;
        for (size_t j = 0; j < got; j++) if ((int)idx[j] != i && d2[j] <= R * R && m < K) outIds[i * K + m++] = (int)idx[j];
        outCounts[i] = m;
      }
      t.push_back(nowMs() - t0);
    }
    report("nanoflann kd-tree (build + knnSearch)", t);
  }
#endif
  return 0;
}
