import { useId, useState, type FormEvent } from "react";
import { api } from "./api";
import { useAction, useApi } from "./hooks";
import { useT } from "./i18n";
import { Button, FieldError, Ltr, Pending, Problem, When } from "./ui";

/** Note is one of the team's notes on a message or a booking. */
export interface Note {
  id: number;
  author: string;
  text: string;
  created: string;
}

/**
 * Notes are the team's own notes on a message or a booking (path: its API
 * path, "/staff/api/messages/<ref>"): read, and one more written. Visitors
 * never see them; the audit log keeps each.
 */
export function Notes({ path }: { path: string }) {
  const t = useT();
  const { data, error, loading, set } = useApi<{ notes: Note[] }>(`${path}/notes`);
  const [text, setText] = useState("");
  const { busy, problem, run } = useAction();
  const textId = useId();
  const errorId = useId();
  const hintId = useId();
  const add = (e: FormEvent) => {
    e.preventDefault();
    return run(async () => {
      set(await api<{ notes: Note[] }>("POST", `${path}/notes`, { text }));
      setText("");
    });
  };
  return (
    <section aria-labelledby={`${textId}-title`} className="ws-notes">
      <h2 id={`${textId}-title`}>{t("notes.title")}</h2>
      <Pending loading={loading} error={error} />
      {data && data.notes.length === 0 && <p className="ws-empty">{t("notes.empty")}</p>}
      {data && data.notes.length > 0 && (
        <ul className="ws-list">
          {data.notes.map((n) => (
            <li key={n.id} className="ws-item">
              <p className="ws-meta">
                <Ltr>{n.author}</Ltr> · <When at={n.created} />
              </p>
              <p className="ws-note-text" dir="auto">
                {n.text}
              </p>
            </li>
          ))}
        </ul>
      )}
      <form className="ws-form" onSubmit={(e) => void add(e)}>
        <label htmlFor={textId}>{t("notes.label")}</label>
        <p id={hintId} className="ws-hint">
          {t("notes.hint")}
        </p>
        <textarea
          id={textId}
          name="note"
          rows={3}
          maxLength={2000}
          dir="auto"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={problem?.fields.text ? true : undefined}
          aria-describedby={problem?.fields.text ? `${hintId} ${errorId}` : hintId}
        />
        {problem?.fields.text && <FieldError id={errorId}>{problem.fields.text}</FieldError>}
        {problem && !problem.fields.text && <Problem error={problem} />}
        <div>
          <Button type="submit" disabled={busy || text.trim() === ""}>
            {t("notes.add")}
          </Button>
        </div>
      </form>
    </section>
  );
}
