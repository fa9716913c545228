import type {
  ServiceHealthCheck,
  ServiceHealthCheckId,
} from '../serviceHealthTypes';
import type { HealthVerdict } from '../verdict';

/** A check passes when healthy, fails when not, and is undecided when unknown. */
function checkOk(verdict: HealthVerdict): boolean | undefined {
  if (verdict === 'healthy') return true;
  if (verdict === 'unknown') return undefined;
  return false;
}

export function check(
  id: ServiceHealthCheckId,
  verdict: HealthVerdict,
  detail: string,
): ServiceHealthCheck {
  return {
    id,
    ok: checkOk(verdict),
    detail,
    verdict,
  };
}

export function withMessage(text: string, message: string | undefined): string {
  return message ? `${text}: ${message}` : text;
}
