import { cloneElement, type ReactElement, type ReactNode, useId } from 'react';

interface ControlProps {
  id?: string;
  className?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  'aria-required'?: boolean;
  role?: string;
}

export interface FormFieldProps {
  /** The one control of the field (input, select or textarea with its Bootstrap class); it gets the id and ARIA state. */
  children: ReactElement<ControlProps>;
  label: ReactNode;
  /** Text under the control that explains it, read with the control. */
  help?: ReactNode;
  /** The field's error, already in the page's language; the control is marked invalid while there is one. */
  error?: ReactNode;
  /** Shows a required marker and tells assistive technology; the check itself stays with the form's schema. */
  isRequired?: boolean;
  /** 'check' puts a checkbox before its label (Bootstrap's form-check); 'switch' shows it as an on/off switch. */
  layout?: 'stacked' | 'check' | 'switch';
  /** Classes of the field's wrapper (default: margin below). */
  className?: string;
}

/**
 * A labelled form control with optional help and error text. The control is described by the help and the error
 * (aria-describedby) and marked aria-invalid while the error shows, so a screen reader announces both when the
 * form moves the focus to the first invalid field.
 */
export function FormField({ children, label, help, error, isRequired = false, layout = 'stacked', className = 'mb-3' }: FormFieldProps) {
  const generatedId = useId();
  const id = children.props.id ?? generatedId;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const hasError = Boolean(error);
  const describedBy = [children.props['aria-describedby'], help ? helpId : null, hasError ? errorId : null].filter(Boolean).join(' ');

  const control = cloneElement(children, {
    ...(layout === 'switch' ? { role: 'switch' } : {}),
    id,
    className: [children.props.className, hasError ? 'is-invalid' : null].filter(Boolean).join(' ') || undefined,
    'aria-describedby': describedBy || undefined,
    'aria-invalid': hasError || undefined,
    'aria-required': isRequired || undefined,
  });
  const labelText = (
    <>
      {label}
      {isRequired && (
        <span className="text-danger ms-1" aria-hidden="true" data-testid="required-marker">
          *
        </span>
      )}
    </>
  );
  const helpText = help ? (
    <div id={helpId} className="form-text">
      {help}
    </div>
  ) : null;
  const errorText = hasError ? (
    <div id={errorId} className="invalid-feedback d-block">
      {error}
    </div>
  ) : null;

  if (layout === 'check' || layout === 'switch') {
    return (
      <div className={['form-check', layout === 'switch' ? 'form-switch' : null, className].filter(Boolean).join(' ')}>
        {control}
        <label className="form-check-label" htmlFor={id}>
          {labelText}
        </label>
        {helpText}
        {errorText}
      </div>
    );
  }
  return (
    <div className={className || undefined}>
      <label className="form-label" htmlFor={id}>
        {labelText}
      </label>
      {control}
      {helpText}
      {errorText}
    </div>
  );
}
