/*
 * Native baseline for the box-box figure of issue 8 (bench/native/README.md), on the 100,000 seeded box pairs of
 * bench/collision.ts as bench/native/export-scenes.ts writes them:
 *  - the exact penetration depth of each overlapping pair by brute-force SAT (box-sat.h), the oracle both
 *    libraries are checked against;
 *  - libccd's GJK + EPA (ccdGJKPenetration: depth, direction and one point; no contact manifold) and its MPR
 *    (ccdMPRPenetration, an approximation), timed per pair as bench/collision.ts does (batches of 100, median).
 * Build (libccd built with cmake -DENABLE_DOUBLE_PRECISION=ON into <ccd-build>):
 *   gcc -O3 -march=native -I<ccd-build> -I<libccd>/src boxes.c <ccd-build>/libccd.a -lm -o boxes
 * Run: ./boxes <folder>
 */
#include <ccd/ccd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "box-sat.h"

typedef struct { double h[3]; double p[12]; } Box; /* half extents; position then row-major rotation */

static void support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const Box* b = (const Box*)obj; const double* R = b->p + 3; double l[3];
  for (int i = 0; i < 3; i++) { double di = R[i] * dir->v[0] + R[3 + i] * dir->v[1] + R[6 + i] * dir->v[2]; l[i] = di >= 0 ? b->h[i] : -b->h[i]; }
  for (int r = 0; r < 3; r++) out->v[r] = b->p[r] + R[3 * r] * l[0] + R[3 * r + 1] * l[1] + R[3 * r + 2] * l[2];
}
static void center(const void* obj, ccd_vec3_t* c) { const Box* b = obj; c->v[0] = b->p[0]; c->v[1] = b->p[1]; c->v[2] = b->p[2]; }

static double nowUs(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static int cmpd(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return x < y ? -1 : x > y; }

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: boxes <folder>\n"); return 2; }
  const int n = 100000; char path[4096];
  Box* bx = malloc(sizeof(Box) * 2 * n); double* rec = malloc(8 * 15 * 2 * (size_t)n); double* mm = malloc(8 * 5 * (size_t)n);
  snprintf(path, sizeof path, "%s/boxes.bin", argv[1]); FILE* f = fopen(path, "rb");
  if (!f || fread(rec, 8, 15 * 2 * (size_t)n, f) != 15 * 2 * (size_t)n) { fprintf(stderr, "cannot read %s\n", path); return 2; } fclose(f);
  snprintf(path, sizeof path, "%s/murmur-boxes.bin", argv[1]); f = fopen(path, "rb");
  if (!f || fread(mm, 8, 5 * (size_t)n, f) != 5 * (size_t)n) { fprintf(stderr, "cannot read %s\n", path); return 2; } fclose(f);
  for (int i = 0; i < 2 * n; i++) { memcpy(bx[i].h, rec + 15 * i, 24); memcpy(bx[i].p, rec + 15 * i + 3, 96); }
  /* the oracle, and Murmur's depth against it */
  double* exact = malloc(8 * (size_t)n); int overlapping = 0, murmurOff = 0; double murmurMax = 0;
  for (int i = 0; i < n; i++) {
    exact[i] = boxSatDepth(rec + 15 * (2 * i), rec + 15 * (2 * i + 1));
    if (exact[i] <= 1e-3) continue; /* clearly overlapping pairs only */
    overlapping++;
    double e = mm[5 * i] > 0 ? fabs(mm[5 * i + 1] - exact[i]) : exact[i];
    if (e > murmurMax) murmurMax = e;
    if (e > 1e-4) murmurOff++;
  }
  printf("%d of %d pairs overlap by more than 1 mm (brute-force SAT depth)\n", overlapping, n);
  printf("Murmur GJK + EPA + clip (from export-scenes.ts): depth off the exact depth by > 1e-4 m on %d pairs, max |error| %.2e m\n", murmurOff, murmurMax);
  ccd_t ccd; CCD_INIT(&ccd);
  ccd.support1 = support; ccd.support2 = support; ccd.center1 = center; ccd.center2 = center;
  ccd.max_iterations = 100; ccd.epa_tolerance = 1e-4; ccd.dist_tolerance = 1e-6;
  for (int mode = 0; mode < 2; mode++) {
    double* s = malloc(8 * (size_t)(n / 100)); volatile double sink = 0; int off = 0; double maxErr = 0;
    for (int i = 0; i < 2000; i++) { ccd_real_t d; ccd_vec3_t dir, p; if (mode == 0) ccdGJKPenetration(&bx[2 * i], &bx[2 * i + 1], &ccd, &d, &dir, &p); else ccdMPRPenetration(&bx[2 * i], &bx[2 * i + 1], &ccd, &d, &dir, &p); }
    for (int b = 0; b < n / 100; b++) {
      double t0 = nowUs();
      for (int k = 0; k < 100; k++) {
        int i = b * 100 + k; ccd_real_t d = 0; ccd_vec3_t dir, p;
        int r = mode == 0 ? ccdGJKPenetration(&bx[2 * i], &bx[2 * i + 1], &ccd, &d, &dir, &p) : ccdMPRPenetration(&bx[2 * i], &bx[2 * i + 1], &ccd, &d, &dir, &p);
        sink += d;
        if (exact[i] > 1e-3) { double e = r == 0 ? fabs(d - exact[i]) : exact[i]; if (e > maxErr) maxErr = e; if (e > 1e-4) off++; }
      }
      s[b] = (nowUs() - t0) / 100;
    }
    qsort(s, n / 100, 8, cmpd);
    printf("libccd %-28s median %.3f us/pair, min %.3f, max %.3f; depth off the exact depth by > 1e-4 m on %d pairs, max |error| %.2e m\n",
      mode == 0 ? "GJK + EPA (ccdGJKPenetration)" : "MPR (ccdMPRPenetration)", s[n / 200], s[0], s[n / 100 - 1], off, maxErr);
    free(s);
  }
  return 0;
}
