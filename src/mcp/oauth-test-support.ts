import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { REDIRECT_URI } from './sign-in-client.js'

/** An `OAuthClientProvider` that keeps everything in memory and records the authorization URL. */
export class MemoryOAuthClient implements OAuthClientProvider {
  authorizationUrl: URL | undefined
  #client: OAuthClientInformationMixed | undefined
  #tokens: OAuthTokens | undefined
  #verifier = ''

  get redirectUrl(): string {
    return REDIRECT_URI
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'sdk test client', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }
  }

  clientInformation() { return this.#client }
  saveClientInformation(info: OAuthClientInformationMixed) { this.#client = info }
  tokens() { return this.#tokens }
  saveTokens(tokens: OAuthTokens) { this.#tokens = tokens }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url }
  saveCodeVerifier(verifier: string) { this.#verifier = verifier }
  codeVerifier() { return this.#verifier }
}
