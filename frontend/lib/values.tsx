// Values set whole into a translated sentence: docs/ARCHITECTURE.md, "Data"
// (a visitor's mail in two parts) says how mails do the same.
import type { ReactNode } from "react";

const open = "\uE000";
const close = "\uE001";
const marker = new RegExp(`${open}(\\w+)${close}`);

/**
 * withWholeValues returns the sentence that translate makes, with each of
 * values (an address, a phone number, a link) set into it whole: in a
 * <bdi>, so that right-to-left text keeps it in its own order, of class
 * "unbroken", so that a line never breaks inside it unless it is wider than
 * the whole line. translate is called with a marker in place of each value.
 */
export function withWholeValues(
  translate: (values: Record<string, string>) => string,
  values: Record<string, string>,
): ReactNode[] {
  const marked: Record<string, string> = {};
  for (const name of Object.keys(values)) marked[name] = `${open}${name}${close}`;
  return translate(marked)
    .split(marker)
    .map((part, i) =>
      i % 2 === 0 ? (
        part
      ) : (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one sentence, always in the same order
        <bdi key={i} className="unbroken">
          {values[part] ?? ""}
        </bdi>
      ),
    );
}
