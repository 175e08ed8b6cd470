// The browser side of passkeys: the server's options (go-webauthn's JSON,
// binary values in base64url) become what navigator.credentials takes, and
// the authenticator's answer becomes JSON again. Written out rather than
// through PublicKeyCredential.parseCreationOptionsFromJSON, which browsers
// released before 2025 lack.

function fromBase64url(s: string): ArrayBuffer {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}

function toBase64url(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

interface DescriptorJSON {
  type: "public-key";
  id: string;
  transports?: AuthenticatorTransport[];
}

/** CreationOptionsJSON is go-webauthn's protocol.CredentialCreation. */
export interface CreationOptionsJSON {
  publicKey: Omit<PublicKeyCredentialCreationOptions, "challenge" | "user" | "excludeCredentials"> & {
    challenge: string;
    user: { id: string; name: string; displayName: string };
    excludeCredentials?: DescriptorJSON[];
  };
}

/** RequestOptionsJSON is go-webauthn's protocol.CredentialAssertion. */
export interface RequestOptionsJSON {
  publicKey: Omit<PublicKeyCredentialRequestOptions, "challenge" | "allowCredentials"> & {
    challenge: string;
    allowCredentials?: DescriptorJSON[];
  };
}

const descriptor = (d: DescriptorJSON): PublicKeyCredentialDescriptor => ({ ...d, id: fromBase64url(d.id) });

/** passkeysAvailable reports whether the browser can use passkeys at all. */
export function passkeysAvailable(): boolean {
  return typeof window.PublicKeyCredential === "function" && typeof navigator.credentials?.create === "function";
}

/** createPasskey asks the authenticator for a new passkey and returns its answer as JSON. */
export async function createPasskey(options: CreationOptionsJSON): Promise<unknown> {
  const pk = options.publicKey;
  const cred = (await navigator.credentials.create({
    publicKey: {
      ...pk,
      challenge: fromBase64url(pk.challenge),
      user: { ...pk.user, id: fromBase64url(pk.user.id) },
      excludeCredentials: (pk.excludeCredentials ?? []).map(descriptor),
    },
  })) as PublicKeyCredential | null;
  if (!cred) throw new DOMException("no credential", "NotAllowedError");
  const response = cred.response as AuthenticatorAttestationResponse;
  return credentialJSON(cred, {
    attestationObject: toBase64url(response.attestationObject),
    transports: typeof response.getTransports === "function" ? response.getTransports() : [],
  });
}

/** getPasskey asks the authenticator to sign in with one of this site's passkeys and returns its answer as JSON. */
export async function getPasskey(options: RequestOptionsJSON): Promise<unknown> {
  const pk = options.publicKey;
  const cred = (await navigator.credentials.get({
    publicKey: { ...pk, challenge: fromBase64url(pk.challenge), allowCredentials: (pk.allowCredentials ?? []).map(descriptor) },
  })) as PublicKeyCredential | null;
  if (!cred) throw new DOMException("no credential", "NotAllowedError");
  const response = cred.response as AuthenticatorAssertionResponse;
  return credentialJSON(cred, {
    authenticatorData: toBase64url(response.authenticatorData),
    signature: toBase64url(response.signature),
    userHandle: response.userHandle ? toBase64url(response.userHandle) : undefined,
  });
}

/** credentialJSON is a credential as the server reads it: the fields every credential has, and its response's own. */
function credentialJSON(cred: PublicKeyCredential, response: Record<string, unknown>) {
  return {
    id: cred.id,
    rawId: toBase64url(cred.rawId),
    type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment ?? undefined,
    response: { clientDataJSON: toBase64url(cred.response.clientDataJSON), ...response },
    clientExtensionResults: cred.getClientExtensionResults(),
  };
}

/** cancelledByPerson reports whether a passkey request failed because the person dismissed it or it timed out. */
export function cancelledByPerson(err: unknown): boolean {
  return err instanceof DOMException && (err.name === "NotAllowedError" || err.name === "AbortError");
}
