import type { FieldFault } from "@lotline/contract";
import type { FastifySchemaValidationError } from "fastify";
import { echoableName } from "./echoable-name.js";

/**
 * The fields a schema refused, named as the client wrote them (`location.lat`, `parcel_boundary.coordinates[0]`,
 * `limit`), each with Ajv's reason: a missing member names itself, an unknown one says so, a blank one says that.
 */
export function validationFaults(errors: readonly FastifySchemaValidationError[], whole: string): FieldFault[] {
  return errors.map((error) => {
    const path = error.instancePath.split("/").slice(1).map(unescapePointer);
    const { missingProperty, additionalProperty } = error.params as Record<string, unknown>;
    if (error.keyword === "required" && typeof missingProperty === "string") {
      return { field: fieldName([...path, missingProperty], whole), reason: "is required" };
    }
    if (error.keyword === "additionalProperties" && typeof additionalProperty === "string") {
      return { field: fieldName([...path, additionalProperty], whole), reason: "is not a field of this request" };
    }
    const reason = error.keyword === "pattern" && error.params.pattern === "\\S" ? "must not be blank" : error.message;
    return { field: fieldName(path, whole), reason: reason ?? "is not valid" };
  });
}

/** `whole` names the input itself (`body`, `querystring`) when the fault is not in one of its members. */
function fieldName(path: readonly string[], whole: string): string {
  if (path.length === 0) return whole;
  return path.reduce(
    (name, step) =>
      /^[0-9]+$/.test(step) ? `${name}[${step}]` : name ? `${name}.${echoableName(step)}` : echoableName(step),
    "",
  );
}

/** JSON Pointer's escapes (RFC 6901): `~1` is `/`, `~0` is `~`. */
function unescapePointer(step: string): string {
  return step.replaceAll("~1", "/").replaceAll("~0", "~");
}
