// Each test file's traffic to the platform simulator is recorded; the run's
// globalTeardown (package.json "jest") checks all of it at once against the
// real API descriptions (GitHub's OpenAPI, ArgoCD's swagger, the CRDs).
import '@refplat/spec-conformance/conformanceHook';
