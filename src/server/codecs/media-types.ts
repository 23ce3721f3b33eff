// The media types the server speaks, and which of them are on (CBOR waits for its feature gate).
import { featureGates } from '../../config/feature-gates.ts';

export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
/** The spec's protobuf name. */
export const PROTOBUF_TYPE = 'application/vnd.platform.protobuf';
/** The name unmodified Kubernetes clients (kubectl, client-go) send and expect back. */
export const PROTOBUF_KUBERNETES_TYPE = 'application/vnd.kubernetes.protobuf';
export const CBOR_TYPE = 'application/cbor';
export const CBOR_SEQ_TYPE = 'application/cbor-seq';
export const APPLY_PATCH_YAML_TYPE = 'application/apply-patch+yaml';
export const APPLY_PATCH_CBOR_TYPE = 'application/apply-patch+cbor';

export function isProtobufType(mediaType: string): boolean {
  return mediaType === PROTOBUF_TYPE || mediaType === PROTOBUF_KUBERNETES_TYPE;
}

/** CBOR is served only with the `CBORServingAndStorage` gate on. */
export function cborEnabled(): boolean {
  return featureGates.enabled('CBORServingAndStorage');
}

/** Media types a create or update body may have, in Kubernetes' order (the 415 text lists them). */
export function bodyMediaTypes(): string[] {
  return cborEnabled() ? [JSON_TYPE, YAML_TYPE, PROTOBUF_TYPE, CBOR_TYPE] : [JSON_TYPE, YAML_TYPE, PROTOBUF_TYPE];
}
