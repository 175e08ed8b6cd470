import { createContext, useContext } from "react";
import { defaultLang, localPath, type Lang } from "./languages";

export const LangContext = createContext<Lang>(defaultLang);

/** useLang returns the language of the page being rendered. */
export function useLang(): Lang {
  return useContext(LangContext);
}

/** useLocalPath returns a function that puts an unprefixed path into the current language. */
export function useLocalPath(): (rest: string) => string {
  const lang = useLang();
  return (rest) => localPath(lang, rest);
}
