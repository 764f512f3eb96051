import type { ColumnType } from "kysely";

/** A timestamp column written as a Date or an ISO string, read as a Date. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A json/jsonb column: written as serialized text, read back parsed. */
export type Json<T = unknown> = ColumnType<T, string, string>;
