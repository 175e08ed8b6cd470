/** ApiError is a refusal of the workspace's API, its message already in the member's language. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string; fields?: Record<string, string> };
}

/** signInPath is where a signed-out member goes, back to where they were afterwards. */
export function signInPath(): string {
  return `/staff/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`;
}

/**
 * signOut ends the session (path: this browser's, or everywhere) and opens
 * the sign-in page, whatever the answer: a session the server could not
 * end has no page to stay on.
 */
export async function signOut(path: "/staff/api/sign-out" | "/staff/api/sign-out-everywhere"): Promise<void> {
  try {
    await api("POST", path, {});
  } finally {
    window.location.assign("/staff/sign-in");
  }
}

/**
 * api calls the workspace's JSON API. A 401 on a page behind the session
 * (the session ended) leads to the sign-in page; any other refusal is an
 * ApiError. A network failure is an ApiError with status 0 and the code "network".
 */
export async function api<R>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown, opts: { signedOut?: boolean } = {}): Promise<R> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", "");
  }
  if (res.status === 401 && !opts.signedOut) {
    window.location.assign(signInPath());
    throw new ApiError(401, "signed_out", "");
  }
  if (res.status === 204) return undefined as R;
  const data = (await res.json().catch(() => ({}))) as R & ErrorBody;
  if (!res.ok) {
    throw new ApiError(res.status, data.error?.code ?? "server_error", data.error?.message ?? "", data.error?.fields ?? {});
  }
  return data;
}
