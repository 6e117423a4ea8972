import { type FieldFault, MAX_JSON_DEPTH } from "@lotline/contract";
import { echoableName, UNSTORABLE_CHARACTER } from "./echoable-name.js";

interface Visit {
  value: unknown;
  depth: number;
  key: string | number | undefined;
  parent: Visit | undefined;
}

/**
 * The first thing in `value` no request may carry: nesting deeper than {@link MAX_JSON_DEPTH}, or a string (a member
 * name included) with NUL or a lone surrogate. Walks with its own stack, never recursion, so that no input can
 * exhaust the call stack. Fields are named as the client wrote them (`location.lat`, `coordinates[0][1]`); `whole`
 * names the input itself (`body`).
 */
export function findInputFault(value: unknown, whole: string): FieldFault | undefined {
  const pending: Visit[] = [{ value, depth: 0, key: undefined, parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const current = visit.value;
    if (typeof current === "string") {
      if (UNSTORABLE_CHARACTER.test(current)) return fault(visit, whole, "must not hold NUL or an unpaired surrogate");
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    const depth = visit.depth + 1;
    if (depth > MAX_JSON_DEPTH) return fault(visit, whole, `nests deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        pending.push({ value: current[index], depth, key: index, parent: visit });
      }
      continue;
    }
    for (const [name, member] of Object.entries(current)) {
      const child: Visit = { value: member, depth, key: name, parent: visit };
      if (UNSTORABLE_CHARACTER.test(name))
        return fault(child, whole, "must not hold NUL or an unpaired surrogate in its name");
      pending.push(child);
    }
  }
  return undefined;
}

function fault(visit: Visit, whole: string, reason: string): FieldFault {
  return { field: fieldName(visit, whole), reason };
}

function fieldName(visit: Visit, whole: string): string {
  let name = "";
  for (let step: Visit | undefined = visit; step?.key !== undefined; step = step.parent) {
    const key = step.key;
    const separator = name === "" || name.startsWith("[") ? "" : ".";
    name = `${typeof key === "number" ? `[${key}]` : echoableName(key)}${separator}${name}`;
  }
  return name === "" ? whole : name;
}
