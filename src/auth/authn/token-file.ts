// Static bearer tokens from --token-auth-file: Kubernetes' CSV format, one `token,user,uid[,"group1,group2"]`
// per line (further columns are ignored).
import type { UserInfo } from '../../apis/kind.ts';

/** Parses CSV records (RFC 4180 quoting, as Go's encoding/csv reads them). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  let lineStart = true;
  const endRecord = () => {
    record.push(field);
    // Blank lines are skipped, as encoding/csv does.
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
    field = '';
    lineStart = true;
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
        quoted = false; i++; continue;
      }
      field += c; i++; continue;
    }
    if (lineStart && c === '#') { while (i < text.length && text[i] !== '\n') i++; i++; continue; }
    lineStart = false;
    if (c === '"' && field === '') { quoted = true; i++; continue; }
    if (c === ',') { record.push(field); field = ''; i++; continue; }
    if (c === '\r' && text[i + 1] === '\n') { i++; continue; }
    if (c === '\n') { endRecord(); i++; continue; }
    field += c; i++;
  }
  if (quoted) throw new Error('extraneous or missing " in quoted-field');
  if (field !== '' || record.length) endRecord();
  return records;
}

/** Reads the token file's text into a token -> user map; throws on a record with fewer than 3 columns. */
export function parseTokenFile(text: string, path: string, warn: (msg: string) => void = () => {}): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  let recordNum = 0;
  for (const record of parseCsv(text)) {
    if (record.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    recordNum++;
    const [token, username, uid] = record;
    if (!token) { warn(`empty token has been found in token file '${path}', record number '${recordNum}'`); continue; }
    if (tokens.has(token)) warn(`duplicate token has been found in token file '${path}', record number '${recordNum}'`);
    const user: UserInfo = { username, uid, groups: record.length >= 4 && record[3] !== '' ? record[3].split(',') : [] };
    tokens.set(token, user);
  }
  return tokens;
}

export interface TokenAuthenticator {
  /** The user of a token this authenticator knows; undefined when it does not know it; throws when it is bad. */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenResult | undefined> | TokenResult | undefined;
}

export interface TokenResult {
  user: UserInfo;
  /** Audiences the token is good for (intersected with those asked for), when the authenticator knows. */
  audiences?: string[];
}

export function staticTokenAuthenticator(tokens: Map<string, UserInfo>): TokenAuthenticator {
  return {
    authenticateToken(token) {
      const user = tokens.get(token);
      return user ? { user: { ...user, groups: [...user.groups] } } : undefined;
    },
  };
}
