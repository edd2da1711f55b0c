/** The project picker: every project with memories or sessions (`GET /v1/projects`), most recently active first. */
import type { ComponentChildren } from 'preact';
import { call, type Json } from './api.js';
import { useLoad } from './use-load.js';

export type Projects = Json<'projects'>;

export function useProjects(): Projects | null {
  return useLoad((signal) => call('projects', {}, signal), 'projects').data;
}

export function ProjectSelect({
  projects,
  value,
  onChange,
  children,
  label = 'Project',
}: {
  projects: Projects | null;
  value: string;
  onChange: (v: string) => void;
  /** Options before the projects (e.g. "you only", "any"). */
  children?: ComponentChildren;
  label?: string;
}) {
  const known = projects?.projects.map((p) => p.project) ?? [];
  return (
    <label>
      {label}{' '}
      <select name="project" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {children}
        {projects?.projects.map((p) => (
          <option key={p.project} value={p.project}>
            {p.project} ({p.active} active)
          </option>
        ))}
        {value && !known.includes(value) && value !== '*' && <option value={value}>{value}</option>}
      </select>
    </label>
  );
}
