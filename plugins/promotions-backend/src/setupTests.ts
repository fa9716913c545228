// Each test file's traffic to the platform simulator is recorded; the run's
// globalTeardown (package.json "jest") checks all of it at once against the
// real API descriptions (GitHub's OpenAPI, ArgoCD's swagger, the CRDs).
import '@refplat/spec-conformance/conformanceHook';

// A unit test that spawns a process, reads a real registry or runs a fuzz
// property passes Jest's 5 s default on a loaded 2-core CI machine; API
// suites set their own, larger limits. The waits themselves are on conditions.
jest.setTimeout(60_000);
