export { operatorSettings } from './schema.js';
export {
  createOperatorSettingsService,
  OPERATOR_SETTINGS,
  type OperatorSettingKey,
  type OperatorSettingsService,
  operatorSettingValue,
  readOperatorSetting,
} from './service.js';
