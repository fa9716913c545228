import { imageDigest, imageRepository } from './application';
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

/** Whether an image name's repository is the Service's (`…/alpha/storefront` for `storefront`). */
function namesService(image: string, service: string): boolean {
  const repository = imageRepository(image.trim());
  return repository === service || repository.endsWith(`/${service}`);
}

/**
 * Kustomize image overrides (`[oldName=]newName[:tag][@digest]`, as `kustomize edit set image`
 * and Argo CD's `spec.source.kustomize.images` take them) for the Service: the old or the new
 * name's repository ends in the Service name.
 */
function kustomizeImages(source: ApplicationSource, service: string): InjectedImage[] {
  const images = source.kustomize?.images;
  if (!Array.isArray(images)) return [];
  return images
    .filter((text): text is string => typeof text === 'string')
    .filter(text => {
      const eq = text.indexOf('=');
      return eq < 0
        ? namesService(text, service)
        : namesService(text.slice(0, eq), service) || namesService(text.slice(eq + 1), service);
    })
    .map(text => ({
      via: 'kustomize images' as const,
      text,
      digest: imageDigest(text.slice(text.indexOf('=') + 1)),
    }));
}

/**
 * Helm parameters that carry a digest for the Service. Conservative: only parameters whose
 * value is or contains a `sha256:` digest count, and only when the Service is named — the value
 * is an image of the Service's repository, a dotted segment of the parameter name is the Service
 * (`storefront.image.digest`, `services.storefront.image`), or the source is the Service's own
 * (chart, `helm.releaseName` or the last path segment is the Service).
 */
function helmParameters(source: ApplicationSource, service: string): InjectedImage[] {
  const parameters = source.helm?.parameters;
  if (!Array.isArray(parameters)) return [];
  const sourceIsService =
    source.chart === service ||
    source.helm?.releaseName === service ||
    lastSegment(source.path) === service;
  return parameters
    .filter(parameter => typeof parameter?.value === 'string' && DIGEST.test(parameter.value))
    .filter(
      parameter =>
        sourceIsService ||
        namesService(parameter.value!, service) ||
        (parameter.name ?? '').split(/[.[\]]/).includes(service),
    )
    .map(parameter => ({
      via: 'Helm parameter' as const,
      text: `${parameter.name ?? ''}=${parameter.value}`,
      digest: DIGEST.exec(parameter.value!)![0].toLowerCase(),
    }));
}

/**
 * What the source injects for the Service: kustomize image overrides, then Helm parameters.
 *
 * @public
 */
export function injectedImages(source: ApplicationSource, service: string): InjectedImage[] {
  if (!service) return [];
  return [...kustomizeImages(source, service), ...helmParameters(source, service)];
}
