// SHA-256 of text, in one call: crypto.hash skips the Hash object that createHash().update().digest()
// builds, which halves the cost (1.4 -> 0.7 us here). Every request hashes its token, and every page
// of notifications its filters.
import { hash } from 'node:crypto';

export const sha256 = (text: string, encoding: 'hex' | 'base64url'): string => hash('sha256', text, encoding);
