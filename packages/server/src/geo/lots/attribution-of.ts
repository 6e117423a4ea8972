import type { Attribution } from "@lotline/contract";
import type { Provenance } from "../../products/product.js";

/** What a map shows of a dataset's provenance: its name, provider and licence. */
export function attributionOf({ dataset, provider, license }: Provenance): Attribution {
  return { dataset, provider, license };
}
