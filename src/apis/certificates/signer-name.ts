// Signer names (`example.com/signer-name`, up to 571 characters) as Kubernetes' ValidateSignerName checks
// them: a domain of at least two DNS labels, one slash, and a path of DNS subdomains separated by dots.
import { type FieldError, invalid, required, tooLong } from '../../machinery/field-errors.ts';
import { goQuote } from '../../machinery/go-format.ts';
import { isDNS1123Label, isDNS1123Subdomain, DNS1123SubdomainMaxLength, DNS1123LabelMaxLength, byteLength } from '../../machinery/validation/strings.ts';

const MAX_DOMAIN = DNS1123SubdomainMaxLength;
// A path must fit `<namespace>.<resource name>`.
const MAX_PATH = DNS1123SubdomainMaxLength + DNS1123LabelMaxLength + 1;
const MAX_SIGNER_NAME = MAX_DOMAIN + MAX_PATH + 1;

export function signerNameErrors(path: string, signerName: string): FieldError[] {
  if (!signerName) return [required(path, '')];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (byteLength(domain) > MAX_DOMAIN) errs.push(tooLong(path, domain, MAX_DOMAIN));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const problems = isDNS1123Label(label);
    // The first bad label is enough: the rest would repeat the same message.
    if (problems.length) { for (const p of problems) errs.push(invalid(path, domain, `validating label ${goQuote(label)}: ${p}`)); break; }
  }
  if (domainLabels.length < 2) errs.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of rest.split('.')) {
    const problems = isDNS1123Subdomain(label);
    if (problems.length) { for (const p of problems) errs.push(invalid(path, rest, `validating label ${goQuote(label)}: ${p}`)); break; }
  }
  if (byteLength(signerName) > MAX_SIGNER_NAME) errs.push(tooLong(path, signerName, MAX_SIGNER_NAME));
  return errs;
}
