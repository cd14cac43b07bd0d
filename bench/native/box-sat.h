/*
 * The exact penetration depth of two boxes by brute-force SAT, the oracle of boxes.c and boxes-bullet.cpp (C and
 * C++). Two boxes are convex polyhedra: their depth is the smallest overlap over the 15 candidate axes, the 3 + 3
 * face normals and the 9 edge cross products (parallel edge pairs skipped: the face axes cover them). A box is the
 * 15-double record export-scenes.ts writes: half extents x, y, z, centre x, y, z, then the row-major rotation.
 */
#ifndef MURMUR_BOX_SAT_H
#define MURMUR_BOX_SAT_H
#include <math.h>

/* half-width of box b projected on unit axis a */
static double boxSatExtent(const double* b, const double* a) {
  const double* R = b + 6; double r = 0;
  for (int i = 0; i < 3; i++) r += b[i] * fabs(R[i] * a[0] + R[3 + i] * a[1] + R[6 + i] * a[2]);
  return r;
}

static double boxSatDepth(const double* A, const double* B) {
  double ca[3][3], cb[3][3], axes[15][3]; int na = 0;
  for (int k = 0; k < 3; k++) for (int j = 0; j < 3; j++) { ca[k][j] = A[6 + 3 * j + k]; cb[k][j] = B[6 + 3 * j + k]; }
  for (int k = 0; k < 3; k++) {
    for (int j = 0; j < 3; j++) axes[na][j] = ca[k][j];
    na++;
    for (int j = 0; j < 3; j++) axes[na][j] = cb[k][j];
    na++;
  }
  for (int a = 0; a < 3; a++) for (int b = 0; b < 3; b++) {
    const double* u = ca[a]; const double* v = cb[b];
    double c[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
    double l = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    if (l < 1e-9) continue;
    for (int j = 0; j < 3; j++) axes[na][j] = c[j] / l;
    na++;
  }
  double d[3] = { B[3] - A[3], B[4] - A[4], B[5] - A[5] }, best = 1e300;
  for (int k = 0; k < na; k++) {
    double ov = boxSatExtent(A, axes[k]) + boxSatExtent(B, axes[k]) - fabs(d[0] * axes[k][0] + d[1] * axes[k][1] + d[2] * axes[k][2]);
    if (ov < best) best = ov;
  }
  return best;
}
#endif
