import { useId } from 'react';
import { useQueryState } from '../router';

/** A select whose value lives in the URL query (`?<param>=`), so a filtered list can be reloaded and linked. */
export function FilterSelect(props: { param: string; label: string; options: { value: string; label: string }[] }) {
  const [value, setValue] = useQueryState(props.param);
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={value} onChange={(event) => setValue(event.target.value)}>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
