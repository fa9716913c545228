import { imageDigest } from './application';
import { ServiceImageQuery, isServiceImage, namesService } from './serviceImages';
import type { ApplicationSource } from './types';

/**
 * An image an ApplicationSet wrote into an Application source for one Service.
 *
 * @public
 */
export interface InjectedImage {
  via: 'kustomize images' | 'Helm parameter';
  /** The override as written: `storefront=reg/alpha/storefront@sha256:…`, `image.digest=sha256:…`. */
  text: string;
  /** The sha256 digest it carries (lower case), or undefined for a tag-only override. */
  digest?: string;
}

const DIGEST = /sha256:[0-9a-f]{64}/i;

function lastSegment(path: string | undefined): string | undefined {
  return path?.split('/').filter(Boolean).pop();
}

/**
 * Kustomize image overrides (`[oldName=]newName[:tag][@digest]`, as `kustomize edit set image`
 * and Argo CD's `spec.source.kustomize.images` take them) for the Service: the new image carries
 * the released digest, or the old or the new name is named as the Service's.
 */
function kustomizeImages(source: ApplicationSource, query: ServiceImageQuery): InjectedImage[] {
  const images = source.kustomize?.images;
  if (!Array.isArray(images)) return [];
  return images
    .filter((text): text is string => typeof text === 'string')
    .filter(text => {
      const eq = text.indexOf('=');
      return eq < 0
        ? isServiceImage(text, query)
        : namesService(text.slice(0, eq), query) || isServiceImage(text.slice(eq + 1), query);
    })
    .map(text => ({
      via: 'kustomize images' as const,
      text,
      digest: imageDigest(text.slice(text.indexOf('=') + 1)),
    }));
}

/**
 * Helm parameters that carry a digest for the Service. Conservative: only parameters whose
 * value is or contains a `sha256:` digest count, and only the released digest or a value that
 * names the Service — the value is an image named as the Service's, a dotted segment of the
 * parameter name is the Service (`storefront.image.digest`, `services.storefront.image`), or the
 * source is the Service's own (chart, `helm.releaseName` or the last path segment is the Service).
 */
function helmParameters(source: ApplicationSource, query: ServiceImageQuery): InjectedImage[] {
  const parameters = source.helm?.parameters;
  if (!Array.isArray(parameters)) return [];
  const { service } = query;
  const released = query.releasedDigest?.toLowerCase();
  const sourceIsService =
    source.chart === service ||
    source.helm?.releaseName === service ||
    lastSegment(source.path) === service;
  return parameters
    .filter(parameter => typeof parameter?.value === 'string' && DIGEST.test(parameter.value))
    .map(parameter => ({ parameter, digest: DIGEST.exec(parameter.value!)![0].toLowerCase() }))
    .filter(
      ({ parameter, digest }) =>
        digest === released ||
        sourceIsService ||
        namesService(parameter.value!, query) ||
        (parameter.name ?? '').split(/[.[\]]/).includes(service),
    )
    .map(({ parameter, digest }) => ({
      via: 'Helm parameter' as const,
      text: `${parameter.name ?? ''}=${parameter.value}`,
      digest,
    }));
}

/**
 * What the source injects for the Service: kustomize image overrides, then Helm parameters. An
 * override that carries the released digest is the Service's whatever its name; one named as the
 * Service's (`promotions.images`) tells what is injected instead.
 *
 * @public
 */
export function injectedImages(source: ApplicationSource, query: ServiceImageQuery): InjectedImage[] {
  if (!query.service) return [];
  return [...kustomizeImages(source, query), ...helmParameters(source, query)];
}
