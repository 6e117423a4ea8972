import { Type } from "typebox";

/** The largest row id either database stores (PostgreSQL's `integer`); an id beyond it names nothing. */
export const DATABASE_ID_MAX = 2_147_483_647;

/** A row id in a request: a path parameter or a body member naming a stored record. */
export const DatabaseId = () => Type.Integer({ minimum: 1, maximum: DATABASE_ID_MAX });

/** Text a person typed: not blank (`pattern` asks for one character that is not white space). */
export const NonBlankText = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: "\\S" });
