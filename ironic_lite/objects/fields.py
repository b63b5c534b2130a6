"""Field types of ironic-lite objects."""

from oslo_versionedobjects import fields as ovo_fields

from ironic_lite.common import utils

BooleanField = ovo_fields.BooleanField
DateTimeField = ovo_fields.DateTimeField
IntegerField = ovo_fields.IntegerField
ListOfObjectsField = ovo_fields.ListOfObjectsField
ListOfStringsField = ovo_fields.ListOfStringsField
ObjectField = ovo_fields.ObjectField
StringField = ovo_fields.StringField
UUIDField = ovo_fields.UUIDField


class FlexibleDict(ovo_fields.FieldType):
    """A dict that also accepts a JSON string; None becomes {} if allowed."""

    @staticmethod
    def coerce(obj, attr, value):
        if isinstance(value, str):
            from oslo_serialization import jsonutils
            value = jsonutils.loads(value)
        return dict(value or {})


class FlexibleDictField(ovo_fields.AutoTypedField):
    AUTO_TYPE = FlexibleDict()

    def _null(self, obj, attr):
        if self.nullable:
            return {}
        return super()._null(obj, attr)


class MACAddress(ovo_fields.FieldType):
    @staticmethod
    def coerce(obj, attr, value):
        return utils.validate_and_normalize_mac(value)


class MACAddressField(ovo_fields.AutoTypedField):
    AUTO_TYPE = MACAddress()


class ListOfFlexibleDictsField(ovo_fields.AutoTypedField):
    """A list of dicts (a deploy template's steps)."""
    AUTO_TYPE = ovo_fields.List(FlexibleDict())
