/** The list of bench modules run by `npm run bench`, in order. Each area adds its module here. */
import type { BenchModule } from './harness';

export const modules: BenchModule[] = [
];
