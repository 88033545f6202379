// SchemaFormModel is the live state of one form built from a JSON Schema:
// the field states, the raw-JSON editor kept in sync both ways, and the
// validation shown once the user tried to submit. SchemaForm.svelte renders
// it; whoever owns the form (the Tools screen, an elicitation dialog) keeps
// the model and reads value when submitting.

import {
  analyzeCached,
  deepEqual,
  dotted,
  inputProblems,
  isFormRoot,
  selectedVariants,
  stateFromValue,
  stateToValue,
  type FieldState,
  type Schema,
  type SchemaNode,
  type Segment,
} from './engine';
import { errorMessage, relevantErrors, validatorFor, type ErrorMsg } from './validate';

/** Issue is one problem with the form's value, at a field. */
export interface Issue {
  /** Path of the value ([] = the whole value). */
  path: Segment[];
  msg: ErrorMsg;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class SchemaFormModel {
  readonly schema: Schema;
  readonly root: SchemaNode;
  /** rawOnly is true when the form cannot show this schema: only the JSON editor is offered. */
  readonly rawOnly: boolean;

  #state = $state<FieldState>({ k: 'object', fields: {} });
  #raw = $state(false);
  #rawText = $state('');
  #rawParseError = $state('');
  #showErrors = $state(false);

  #formValue = $derived<Record<string, unknown>>(this.#computeFormValue());

  #rawValue = $derived.by<{ ok: true; value: Record<string, unknown> } | { ok: false }>(() => {
    try {
      const v: unknown = JSON.parse(this.#rawText || '{}');
      return isObj(v) ? { ok: true, value: v } : { ok: false };
    } catch {
      return { ok: false };
    }
  });

  #issues = $derived.by<Issue[]>(() => (this.#showErrors ? this.#check() : []));

  constructor(schema: Schema, initial?: Record<string, unknown>) {
    this.schema = schema;
    this.root = analyzeCached(schema);
    this.rawOnly = !isFormRoot(this.root);
    this.#state = initial ? stateFromValue(this.root, initial, false) : stateFromValue(this.root, undefined, true);
    if (this.rawOnly) {
      this.#raw = true;
      this.#rawText = JSON.stringify(initial ?? this.#formValue, null, 2);
    }
  }

  /** state is the root field state; field components change it in place. */
  get state(): FieldState {
    return this.#state;
  }

  /** raw is true while the JSON editor is shown instead of the form. */
  get raw(): boolean {
    return this.#raw;
  }

  get rawText(): string {
    return this.#rawText;
  }

  /** rawError is the JSON syntax error of the editor's text, "" when it parses. */
  get rawError(): string {
    return this.#rawParseError;
  }

  /** lossy is true when the JSON editor holds something the form cannot show. */
  get lossy(): boolean {
    return this.#raw && this.#rawValue.ok && !this.rawOnly && !deepEqual(this.#rawValue.value, this.#formValue);
  }

  /** value is what submitting sends: the editor's JSON in raw mode, else the form's. */
  get value(): Record<string, unknown> {
    if (this.#raw && this.#rawValue.ok) return this.#rawValue.value;
    return this.#formValue;
  }

  /** issues are the validation problems; empty until validate() was called once. */
  get issues(): Issue[] {
    return this.#issues;
  }

  /** issuesAt returns the messages of the field at path (dotted). */
  issuesAt(path: string): ErrorMsg[] {
    return this.#issues.filter((i) => dotted(i.path) === path).map((i) => i.msg);
  }

  /** issuesUnder returns the messages at path and below it (a JSON text field holds its whole subtree). */
  issuesUnder(path: string): ErrorMsg[] {
    return this.#issues.filter((i) => {
      const d = dotted(i.path);
      return d === path || d.startsWith(path + '.');
    }).map((i) => i.msg);
  }

  /** edit changes one field's state (fields call this instead of mutating their props). */
  edit<T extends FieldState>(st: T, changes: Partial<T>): void {
    Object.assign(st, changes);
  }

  /** addItem appends a fresh item (with the item schema's defaults) to an array field. */
  addItem(st: FieldState, item: SchemaNode): void {
    if (st.k === 'array') st.items.push(stateFromValue(item, undefined, true, 'item'));
  }

  /** removeItem removes the item at index from an array field. */
  removeItem(st: FieldState, index: number): void {
    if (st.k === 'array') st.items.splice(index, 1);
  }

  /** setRaw switches between the form and the JSON editor, carrying the value over. */
  setRaw(on: boolean): void {
    if (this.rawOnly || on === this.#raw) return;
    if (on) {
      this.#rawText = JSON.stringify(this.#formValue, null, 2);
      this.#rawParseError = '';
    }
    this.#raw = on;
  }

  /** setRawText takes the editor's text; valid JSON objects update the form too. */
  setRawText(text: string): void {
    this.#rawText = text;
    let v: unknown;
    try {
      v = JSON.parse(text || '{}');
    } catch (e) {
      this.#rawParseError = (e as Error).message;
      return;
    }
    if (!isObj(v)) {
      this.#rawParseError = 'object';
      return;
    }
    this.#rawParseError = '';
    if (!this.rawOnly) this.#state = stateFromValue(this.root, v, false);
  }

  /** setValue shows value in the form and the editor (restoring a past run). */
  setValue(value: Record<string, unknown>): void {
    if (!this.rawOnly) this.#state = stateFromValue(this.root, value, false);
    this.#rawText = JSON.stringify(value, null, 2);
    this.#rawParseError = '';
  }

  /** reset returns to the schema's defaults and hides errors. */
  reset(): void {
    this.#state = stateFromValue(this.root, undefined, true);
    this.#rawText = JSON.stringify(this.#computeFormValue(), null, 2);
    this.#rawParseError = '';
    this.#showErrors = false;
  }

  /** validate shows the problems (live from now on) and tells whether there are none. */
  validate(): boolean {
    this.#showErrors = true;
    return this.#check().length === 0;
  }

  /** compileError says why the schema could not be used for validation ("" when it could). */
  get compileError(): string {
    return validatorFor(this.schema).compileError ?? '';
  }

  #computeFormValue(): Record<string, unknown> {
    const v = stateToValue(this.root, this.#state, 'required');
    return isObj(v) ? v : {};
  }

  #check(): Issue[] {
    if (this.#raw) {
      if (!this.#rawValue.ok) {
        const key = this.#rawParseError === 'object' ? 'schemaForm.error.rawObject' : 'schemaForm.error.rawJSON';
        return [{ path: [], msg: { key, values: { message: this.#rawParseError } } }];
      }
      const errs = validatorFor(this.schema)(this.#rawValue.value);
      return relevantErrors(errs).map((e) => ({ path: e.path, msg: errorMessage(e) }));
    }
    const problems: Issue[] = inputProblems(this.root, this.#state).map((p) => ({ path: p.path, msg: { key: 'schemaForm.error.json' } }));
    const errs = validatorFor(this.schema)(this.#formValue);
    const selected = selectedVariants(this.root, this.#state);
    return [...problems, ...relevantErrors(errs, selected).map((e) => ({ path: e.path, msg: errorMessage(e) }))];
  }
}
