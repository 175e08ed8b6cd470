import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router-dom";
import { api, ApiError } from "./api";
import type { Boot } from "./boot";
import { useT, type Key } from "./i18n";

export const BootContext = createContext<Boot | null>(null);

/** useBoot returns the page's boot data. */
export function useBoot(): Boot {
  const boot = useContext(BootContext);
  if (!boot) throw new Error("useBoot outside the workspace");
  return boot;
}

/** Loaded is the state of data fetched from the API. */
export interface Loaded<R> {
  data: R | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
  set: (data: R) => void;
}

/** useApi fetches path (again when it changes) from the workspace's API. */
export function useApi<R>(path: string): Loaded<R> {
  const [state, setState] = useState<{ path: string; data: R | null; error: ApiError | null }>({ path: "", data: null, error: null });
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies(generation): reload() bumps it to fetch again
  useEffect(() => {
    let live = true;
    api<R>("GET", path).then(
      (data) => live && setState({ path, data, error: null }),
      (err: unknown) => live && setState({ path, data: null, error: err instanceof ApiError ? err : new ApiError(0, "network", "") }),
    );
    return () => {
      live = false;
    };
  }, [path, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const set = useCallback((data: R) => setState({ path, data, error: null }), [path]);
  const current = state.path === path;
  return { data: current ? state.data : null, error: current ? state.error : null, loading: !current, reload, set };
}

/** Action is the state of a change asked of the API. */
export interface Action {
  busy: boolean;
  problem: ApiError | null;
  /** run asks for change (one at a time: busy meanwhile), and keeps its refusal as problem. */
  run: (change: () => Promise<void>) => Promise<void>;
}

/** useAction runs changes asked of the API; each clears the refusal of the one before. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiError | null>(null);
  const run = useCallback(async (change: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await change();
    } catch (err) {
      setProblem(err instanceof ApiError ? err : null);
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, problem, run };
}

/** usePageTitle names the page in the document's title. */
export function usePageTitle(page: Key) {
  const t = useT();
  const { name } = useBoot();
  const title = t("app.title", { page: t(page), name });
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** useErrorText turns an API refusal into the sentence to show. */
export function useErrorText(): (err: ApiError) => string {
  const t = useT();
  return (err) => {
    switch (err.code) {
      case "network":
        return t("errors.network");
      case "rate_limited":
        return t("errors.rateLimited");
      case "unavailable":
        return t("errors.unavailable");
    }
    return err.message || t("errors.generic");
  };
}

/** useFocusOnNavigation moves the focus to the main landmark after a client navigation, as a page load would. */
export function useFocusOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies(pathname): a navigation is what runs the effect
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById("main")?.focus();
  }, [pathname]);
}
