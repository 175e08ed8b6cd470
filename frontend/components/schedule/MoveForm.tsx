import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useLang } from "../../lib/lang";
import { postReschedule, type CreatedBooking } from "./api";
import { SlotSummary } from "./Details";
import type { HostCard } from "./hosts";
import type { ServiceKey } from "./services";
import type { Slot, SlotsResponse } from "./slots";

export interface MoveFormProps {
  service: ServiceKey;
  /** token is the cancel link's, which also moves the booking. */
  token: string;
  zone: string;
  zoneCity: string;
  slot: Slot | null;
  onMoved: (booking: CreatedBooking) => void;
  /** onTaken reports that the new time was taken meanwhile: the message to announce and the fresh slots. */
  onTaken: (message: string, fresh: SlotsResponse | null, others: HostCard[]) => void;
}

/** MoveForm confirms a move to the chosen time, where a new booking has its details form. */
export function MoveForm({ service, token, zone, zoneCity, slot, onMoved, onTaken }: MoveFormProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const id = useId();
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState("");

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (sending) return;
    if (!slot) {
      setMessage(t("validation.start"));
      return;
    }
    setSending(true);
    setMessage("");
    const result = await postReschedule(token, slot.start, lang);
    setSending(false);
    switch (result.kind) {
      case "moved":
        onMoved(result.booking);
        return;
      case "taken":
        onTaken(result.message, result.slots, result.hosts);
        return;
      case "refused":
      case "invalid":
        setMessage(result.message);
        return;
      default:
        setMessage(t("booking.reschedule.failed"));
    }
  }

  return (
    <form className="booking-details" noValidate onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t("booking.reschedule.newTime")}</h3>
      <SlotSummary service={service} slot={slot} zone={zone} zoneCity={zoneCity} />
      <div className="form-alert" role="alert">
        {message}
      </div>
      <button type="submit" className="button button-primary booking-confirm" aria-disabled={sending || undefined}>
        {sending ? t("booking.reschedule.moving") : t("booking.reschedule.confirm")}
      </button>
    </form>
  );
}
