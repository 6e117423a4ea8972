import { useId, useState } from "preact/hooks";

/** The address search box: type an address, press Enter or the button. */
export function AddressSearch({ initial, onSearch }: { initial: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(initial);
  const id = useId();
  return (
    <search class="address-search">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(text);
        }}
      >
        <label class="field__label" for={id}>
          Find an address
        </label>
        <div class="address-search__row">
          <input
            class="field__control"
            id={id}
            type="search"
            value={text}
            autoComplete="off"
            maxLength={300}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <button type="submit" class="button">
            Search
          </button>
        </div>
      </form>
    </search>
  );
}
