export { BarChart, type Datum, LineChart, type Series } from './charts';
export { ConfirmButton } from './confirm-button';
export { type Column, DataTable, type DataTableProps } from './data-table';
export { EmptyState, ErrorBanner, Loading, Notice } from './feedback';
export { FilterSelect } from './filter-select';
export { Field, type FieldProps, Form, type FormValues } from './form';
export { Page, Section } from './page';
export { SecretOnce } from './secret-once';
