import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// On a loaded 2-core CI machine, and on a fresh clone whose transform cache is
// cold, rendering MUI tables and dialogs takes longer than testing-library's
// 1 s for findBy/waitFor and Jest's 5 s per test. Both still wait on
// conditions; only the patience grows.
configure({ asyncUtilTimeout: 10_000 });
jest.setTimeout(30_000);
