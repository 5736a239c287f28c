export { SETTINGS, type SettingDefinition, type SettingKey, type SettingValue } from './registry.js';
export { registerSettingsRoutes } from './routes.js';
export { createSettingsService, type SettingsService, type SettingTie } from './service.js';
