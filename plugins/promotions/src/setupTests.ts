import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// On a loaded 2-core CI machine, and on a fresh clone whose transform cache is
// cold, rendering MUI tables and dialogs takes longer than testing-library's
// 1 s for findBy/waitFor and Jest's 5 s per test: with another CPU-heavy job
// beside CI, a dialog test of many clicks took over 30 s. Both still wait on
// conditions; only the patience grows.
configure({ asyncUtilTimeout: 20_000 });
jest.setTimeout(90_000);
