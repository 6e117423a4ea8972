import type { Insertable } from "kysely";
import type { AddressTable } from "../../db/schema.js";
import { addressKey, formatAddress, streetKey } from "../address/index.js";
import { holdNamespaceParcels } from "../datasets/namespace-parcels-lock.js";
import { type AddressImportOptions, AddressLocator, type LocatedAddress } from "./address-locator.js";
import { addressColumnsOf } from "./address-text.js";
import { type AddressRecords, type PackedLocated, packAddressRecords, unpackLocated } from "./address-transfer.js";
import { FirstAddressLoad } from "./first-address-load.js";
import { DUPLICATE_REASON } from "./import-policy.js";
import type { RecordOutcome, Rejection } from "./import-summary.js";
import { type ImportThreadOptions, ImportThreads } from "./import-threads.js";
import type { ImportContext, Importer, ReadRecord } from "./run-import.js";
import { type OwnRow, type OwnWrites, storedSameAddresses, withLocalityOf } from "./same-address.js";
import { WrittenPlaces } from "./written-places.js";

export type { AddressImportOptions };

interface Located extends LocatedAddress {
  position: number;
  key: string;
  /** The stored row it writes to, if any. */
  target?: OwnRow;
}

/**
 * Addresses, normalized (USPS abbreviations, ranges, units) and located either through their parcel (placed at a
 * point inside it) or by their own point (and then given the parcel containing it). Stored as the canonical
 * one-line form plus the parts lookups filter on; an address already in the dataset (the same address key) is
 * updated, and rows repeating an address already imported — a condominium's units on one line each — are merged.
 * An address differing from a stored one only by a missing city, state or ZIP code is the same address (see
 * `same-address.ts`): in this dataset it updates that row, in another dataset it is a duplicate and rejected.
 */
export function addressImporter(
  options: AddressImportOptions,
  threads?: ImportThreadOptions,
): Importer<Array<LocatedAddress | Rejection>> {
  const locator = new AddressLocator(options);
  // Started with the first batch: an import refused before reading any leaves no thread behind.
  let onThreads: ImportThreads<AddressRecords, PackedLocated> | undefined;
  // What this import knows of the rows it wrote, when the namespace held no addresses before it: on SQLite, the rows
  // themselves (`firstLoad`), elsewhere the places written. Null when it did: every address is sought.
  let ownWrites: OwnWrites | null | undefined;
  let firstLoad: FirstAddressLoad | undefined;
  // Taken before the first batch looks for its parcels, and held until the import ends.
  let parcelsHeld: Promise<void> | undefined;
  return {
    columns: [...addressColumnsOf(options), ...(options.joinParcel ? [options.joinParcel] : [])],
    // A batch for each thread to work on, and one for this thread to read meanwhile.
    ahead: threads ? threads.count + 1 : 0,
    // Each insert of its rows, appended, still journals the pages it changes: the rows' foreign keys may fail it.
    statementJournalsInMemory: true,
    async prepare(context: ImportContext, batch: ReadRecord[]) {
      parcelsHeld ??= holdNamespaceParcels(context, context.namespace);
      await parcelsHeld;
      if (!threads) {
        const source = { db: context.trx, dialect: context.dialect, namespace: context.namespace };
        return locator.locateBatch(source, batch);
      }
      onThreads ??= new ImportThreads(threads, { kind: "locate-addresses", options, namespace: context.namespace });
      const { records, transfer } = packAddressRecords(batch, options);
      return unpackLocated(await onThreads.run(records, transfer));
    },
    async importBatch(context: ImportContext, found) {
      const outcomes: RecordOutcome[] = [];
      const read: Located[] = [];
      for (const [position, result] of found.entries()) {
        if ("reason" in result) outcomes[position] = result;
        // Built field by field: spreading the objects a thread sent was a quarter of this thread's work here.
        else {
          const { address, parcelId, point } = result;
          read.push({ address, parcelId, point, position, key: addressKey(address) });
        }
      }
      if (ownWrites === undefined) {
        const held = await namespaceHasAddresses(context);
        firstLoad = held ? undefined : await FirstAddressLoad.begin(context);
        ownWrites = held ? null : (firstLoad?.rows ?? new WrittenPlaces());
      }
      if (firstLoad && !firstLoad.canTake(read.map((entry) => entry.address))) {
        await firstLoad.end(context);
        firstLoad = undefined;
        ownWrites = null;
      }
      const { own, same } = await storedSameAddresses(context, read, ownWrites ?? undefined);
      const located = new Map<string, Located>();
      const claimed = new Set<number>();
      for (const [index, entry] of read.entries()) {
        const stored = same[index];
        if (stored && stored.datasetId !== context.datasetId) {
          outcomes[entry.position] = {
            reason: DUPLICATE_REASON,
            detail: `${formatAddress(entry.address)} is already in dataset "${stored.datasetName}"`,
            dataset: stored.datasetName,
          };
          continue;
        }
        if (stored) {
          // The same address written with less (or more) of its locality: the fuller of the two is kept.
          entry.address = withLocalityOf(entry.address, stored.address);
          entry.key = addressKey(entry.address);
        }
        if (located.has(entry.key)) {
          outcomes[entry.position] = "merged";
          continue;
        }
        // A stored row is written by one address of the batch. The row of this very key, taken by a fuller form of
        // the same address, is that address; another address adopting a taken row becomes a row of its own.
        const exact = own.get(entry.key);
        if (exact && claimed.has(exact.addressId)) {
          outcomes[entry.position] = "merged";
          continue;
        }
        const adopted = !exact && stored && !claimed.has(stored.addressId) ? stored : undefined;
        const target = exact ?? adopted;
        if (target) claimed.add(target.addressId);
        entry.target = target;
        located.set(entry.key, entry);
        outcomes[entry.position] =
          target === undefined ? "imported" : target.importId === context.importId ? "merged" : "updated";
      }

      const written = [...located.values()].filter(({ target }) => target?.importId !== context.importId);
      // A first load numbers its rows itself; otherwise the table does.
      const added = written
        .filter(({ target }) => target === undefined)
        .map((entry) => addressRow(context, entry, firstLoad?.rows.add(entry.address)));
      const changed = written.flatMap((entry) =>
        entry.target ? [addressRow(context, entry, entry.target.addressId)] : [],
      );
      await context.rows.insert("addresses", added);
      await context.rows.insert("addresses", changed, ["address_id"]);
      if (ownWrites instanceof WrittenPlaces) for (const entry of written) ownWrites.add(entry.address);
      return outcomes;
    },
    async finish(context: ImportContext) {
      await firstLoad?.end(context);
    },
    async close() {
      await onThreads?.stop();
    },
  };
}

/**
 * Whether the import's namespace holds any address yet, by its datasets' counts (rows are written by imports only,
 * each of which counts its dataset's rows at its end). Asked once, at the first batch: an import running beside
 * another into the same namespace would not see that one's rows before it commits either way.
 */
async function namespaceHasAddresses(context: ImportContext): Promise<boolean> {
  const row = await context.trx
    .selectFrom("datasets")
    .select("dataset_id")
    .where("kind", "=", "addresses")
    .where("namespace", "=", context.namespace)
    .where("record_count", ">", 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The row of an address, with its id when it has one: set on the row built, because spreading the row into another
 * object with the id cost more than building it.
 */
function addressRow(
  context: ImportContext,
  { address, parcelId, point }: Located,
  id: number | undefined,
): Insertable<AddressTable> {
  const row: Insertable<AddressTable> = {
    dataset_id: context.datasetId,
    number: address.number ?? null,
    number_low: address.numberLow ?? null,
    number_high: address.numberHigh ?? null,
    street: streetKey(address),
    unit_type: address.unitType ?? null,
    unit: address.unit ?? null,
    city: address.city ?? null,
    state: address.state ?? null,
    postcode: address.postcode ?? null,
    plus4: address.plus4 ?? null,
    parcel_id: parcelId,
    lon: point[0],
    lat: point[1],
    import_id: context.importId,
    updated_at: context.now,
  };
  if (id !== undefined) row.address_id = id;
  return row;
}
