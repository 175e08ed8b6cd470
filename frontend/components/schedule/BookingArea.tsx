import type { BookingProps } from "./Booking";
import { BookingPending } from "./Intro";
import type { ServiceKey } from "./services";
import type { useBookingChunk } from "./useBookingChunk";

/**
 * BookingArea is the space kept for the booking's chunk (useBookingChunk):
 * the booking of service once the chunk is here, in the zone it says to
 * show first; until then what stands in for it, with onRetry after a
 * failure. A booking made or moved is given to onBooked or move.
 */
export function BookingArea({
  service,
  chunk,
  onRetry,
  onBooked,
  move,
  person,
}: { service: ServiceKey; chunk: ReturnType<typeof useBookingChunk>; onRetry: () => void } & Pick<BookingProps, "onBooked" | "move" | "person">) {
  const { ready, failed, started } = chunk;
  const Booking = ready?.module.Booking;
  return (
    <div className="booking-area">
      {ready && Booking ? (
        <Booking
          service={service}
          catalog={ready.module.zoneCatalog(ready.cldr)}
          weekdaysShort={ready.cldr.weekdaysShort}
          detected={ready.detected}
          zone={ready.zone}
          prefetched={ready.prefetched}
          onBooked={onBooked}
          move={move}
          person={person}
        />
      ) : (
        <BookingPending failed={failed} started={started} onRetry={onRetry} />
      )}
    </div>
  );
}
