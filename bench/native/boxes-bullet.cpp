// Bullet's GJK + EPA (btGjkEpa2::Penetration: depth, normal and witness points; no contact manifold) on the
// 100,000 seeded box pairs of bench/collision.ts (bench/native/README.md), boxes with collision margin 0 so they
// are the exact boxes; timed per pair as bench/collision.ts does (batches of 100, median), depth checked against
// brute-force SAT (the smallest overlap over the 15 box-box axes).
// Build (Bullet's unity sources, double precision):
//   g++ -O3 -march=native -DBT_USE_DOUBLE_PRECISION -I<bullet>/src boxes-bullet.cpp \
//       <bullet>/src/btBulletCollisionAll.cpp <bullet>/src/btLinearMathAll.cpp -o boxes-bullet
// Run: ./boxes-bullet <folder>
#include <btBulletCollisionCommon.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>
#include "box-sat.h"
using namespace std;

static double nowUs() { return chrono::duration<double, micro>(chrono::steady_clock::now().time_since_epoch()).count(); }
int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: boxes-bullet <folder>\n"); return 2; }
  const int n = 100000; vector<double> rec(15 * 2 * (size_t)n);
  FILE* f = fopen((string(argv[1]) + "/boxes.bin").c_str(), "rb");
  if (!f || fread(rec.data(), 8, rec.size(), f) != rec.size()) { fprintf(stderr, "cannot read boxes.bin\n"); return 2; } fclose(f);
  vector<btBoxShape*> shapes; vector<btTransform> tr;
  for (int i = 0; i < 2 * n; i++) {
    const double* r = &rec[15 * i];
    btBoxShape* s = new btBoxShape(btVector3(r[0], r[1], r[2]));
    s->setMargin(0); // the exact box (Bullet's default 0.04 margin rounds the corners)
    shapes.push_back(s);
    btMatrix3x3 m(r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14]);
    tr.push_back(btTransform(m, btVector3(r[3], r[4], r[5])));
  }
  vector<double> exact(n);
  for (int i = 0; i < n; i++) exact[i] = boxSatDepth(&rec[15 * 2 * i], &rec[15 * (2 * i + 1)]);
  btGjkEpaSolver2::sResults res; volatile double sink = 0;
  for (int i = 0; i < 2000; i++) { btGjkEpaSolver2::Penetration(shapes[2 * i], tr[2 * i], shapes[2 * i + 1], tr[2 * i + 1], btVector3(1, 0, 0), res); sink += res.distance; }
  vector<double> s; int off = 0, cmp = 0; double maxErr = 0;
  for (int b = 0; b < n / 100; b++) {
    double t0 = nowUs();
    for (int k = 0; k < 100; k++) {
      int i = b * 100 + k;
      bool hit = btGjkEpaSolver2::Penetration(shapes[2 * i], tr[2 * i], shapes[2 * i + 1], tr[2 * i + 1], btVector3(1, 0, 0), res);
      sink += res.distance;
      if (exact[i] > 1e-3) { cmp++; double e = hit ? fabs(-res.distance - exact[i]) : exact[i]; if (e > maxErr) maxErr = e; if (e > 1e-4) off++; }
    }
    s.push_back((nowUs() - t0) / 100);
  }
  sort(s.begin(), s.end());
  printf("Bullet btGjkEpaSolver2::Penetration       median %.3f us/pair, min %.3f, max %.3f; depth off the exact depth by > 1e-4 m on %d of %d overlapping pairs, max |error| %.2e m\n", s[s.size() / 2], s[0], s.back(), off, cmp, maxErr);
  return 0;
}
