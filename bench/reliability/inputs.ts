export const INPUT_CASES: import('./matrix').MatrixCase[] = [];
