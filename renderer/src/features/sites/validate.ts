/** Add-site form checks, one rule at a time, each with its own message key. */
export interface AddSiteFields {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly confidential: boolean;
  readonly clientSecret: string;
  /**
   * Whether an application ID is asked for (the student opened "I have an application ID"); default
   * yes.
   */
  readonly needsClientId?: boolean;
}

export type AddSiteErrors = Partial<Record<'baseUrl' | 'clientId' | 'clientSecret', string>>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function validateAddSite(fields: AddSiteFields): AddSiteErrors {
  const errors: { -readonly [K in keyof AddSiteErrors]: string } = {};
  const raw = fields.baseUrl.trim();
  if (raw === '') errors.baseUrl = 'sites.add.errors.urlRequired';
  else {
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      errors.baseUrl = 'sites.add.errors.urlInvalid';
    }
    if (url) {
      // RFC 8252 §8.3 spirit: plain http only on the loopback interface, https everywhere else.
      if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname))
        errors.baseUrl = 'sites.add.errors.urlHttps';
      else if (url.protocol !== 'https:' && url.protocol !== 'http:')
        errors.baseUrl = 'sites.add.errors.urlHttps';
      else if (url.username || url.password) errors.baseUrl = 'sites.add.errors.urlCredentials';
    }
  }
  if (fields.needsClientId !== false && fields.clientId.trim() === '')
    errors.clientId = 'sites.add.errors.clientIdRequired';
  if (fields.confidential && fields.clientSecret.trim() === '')
    errors.clientSecret = 'sites.add.errors.secretRequired';
  return errors;
}
