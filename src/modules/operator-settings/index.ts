export { operatorSettings } from './schema.js';
export {
  createOperatorSettingsService,
  OPERATOR_SETTINGS,
  type OperatorSettingKey,
  type OperatorSettingsService,
  readOperatorSetting,
} from './service.js';
