import { a11ySweep } from './a11y';

// axe-core over every page at 390 px (issue 9; the sweep and its rules: a11y.ts)
a11ySweep(390);
