export type { RenderedPreview as RenderedTemplate, StarterTemplate } from '@carteiro/shared';
