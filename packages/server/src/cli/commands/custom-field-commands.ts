import { CUSTOM_FIELD_TYPES } from "@lotline/contract";
import { addCustomField } from "../../tenancy/custom-fields.js";
import type { Command } from "../command.js";

/**
 * `lotline custom-field add --org ORG_ID --key KEY --label LABEL --type TYPE [--required]` →
 * `{"org_id","key","label","type","required"}`.
 */
const customFieldAdd: Command = {
  usage: `custom-field add --org ORG_ID --key KEY --label LABEL --type ${CUSTOM_FIELD_TYPES.join("|")} [--required] [--json]`,
  options: {
    org: { type: "string" },
    key: { type: "string" },
    label: { type: "string" },
    type: { type: "string" },
    required: { type: "boolean" },
  },
  required: ["org", "key", "label", "type"],
  run: async ({ values, services }) => {
    const orgId = values.org as string;
    const field = await addCustomField(services.db, orgId, {
      key: values.key as string,
      label: values.label as string,
      type: values.type as string,
      required: values.required === true,
    });
    return { org_id: orgId, ...field };
  },
  describe: (result) =>
    `Added ${result.required ? "required" : "optional"} ${result.type} field ${result.key} ("${result.label}") for ${result.org_id}.`,
};

export const customFieldCommands: Record<string, Command> = { "custom-field add": customFieldAdd };
