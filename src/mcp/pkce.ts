import { createHash, timingSafeEqual } from 'node:crypto'
import { InvalidGrantError, InvalidRequestError } from '@modelcontextprotocol/sdk/server/auth/errors.js'

/** RFC 7636 §4.1: 43–128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
/** RFC 7636 §4.2: an S256 challenge is the base64url SHA-256 of the verifier, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/** Refuses a code challenge that no RFC 7636 verifier could produce with S256. */
export function checkCodeChallenge(challenge: string): void {
  if (!S256_CHALLENGE.test(challenge)) throw new InvalidRequestError('code_challenge must be the 43-character base64url SHA-256 of a code verifier (S256).')
}

/**
 * Verifies a PKCE code verifier against its S256 challenge (RFC 7636 §4.6). A verifier that is not
 * 43–128 unreserved characters is refused before hashing, whatever it hashes to.
 */
export function verifyCodeVerifier(verifier: string | undefined, challenge: string): void {
  if (!verifier || !VERIFIER.test(verifier)) throw new InvalidRequestError('code_verifier must be 43-128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636).')
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'))
  const expected = Buffer.from(challenge)
  if (computed.length !== expected.length || !timingSafeEqual(computed, expected)) throw new InvalidGrantError('code_verifier does not match the challenge')
}
