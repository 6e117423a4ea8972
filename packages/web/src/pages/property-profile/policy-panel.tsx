import type { CustomField, PropertyRecord } from "@lotline/contract";
import { formatDate } from "../../format/format-date";
import { formatNumber } from "../../format/format-number";
import { labelFromKey } from "../../format/label-from-key";
import { type Definition, DefinitionList } from "../../ui/definition-list";
import { Panel } from "../../ui/panel";
import { ValueView } from "./value-view";

/** The policy fields given with the property's orders, and the organization's custom fields. */
export function PolicyPanel({
  policy,
  customFields,
}: {
  policy: PropertyRecord["policy"];
  customFields: readonly CustomField[];
}) {
  const items: Definition[] = [
    ["External ID", policy.external_id ?? none],
    ["Secondary ID", policy.secondary_external_id ?? none],
    ["Insured name", policy.insured_name ?? none],
    ["Renewal date", policy.renewal_date ? formatDate(policy.renewal_date) : none],
    ["Premium amount", policy.premium_amount === null ? none : formatNumber(policy.premium_amount, 2)],
  ];
  const labels = new Map(customFields.map((field) => [field.key, field]));
  for (const [key, value] of Object.entries(policy.custom_fields)) {
    const field = labels.get(key);
    const shown =
      field?.type === "date" && typeof value === "string" ? (
        formatDate(value)
      ) : // A number field holds codes and years as often as amounts: shown as entered, without separators.
      typeof value === "number" ? (
        String(value)
      ) : (
        <ValueView value={value} />
      );
    items.push([field?.label ?? labelFromKey(key), shown]);
  }
  return (
    <Panel title="Policy">
      <DefinitionList items={items} />
    </Panel>
  );
}

const none = <span class="muted">none</span>;
