// Each test file's traffic to the platform simulator is checked against the
// real API descriptions (GitHub's OpenAPI, ArgoCD's swagger, the CRDs).
import '@refplat/spec-conformance/conformanceHook';
