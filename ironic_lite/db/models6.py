"""The tables release 6.0 added beside Ironic's older ones (API 1.86 to
1.115): runbooks with their steps and traits, inspection rules and the
firmware components of a node -- Ironic's tables, on the same declarative
base as ``models`` (which re-exports them: ``models.Runbook`` and so on)."""

from sqlalchemy import Boolean, Column, ForeignKey, Index, Integer
from sqlalchemy import orm
from sqlalchemy import String, UniqueConstraint

from ironic_lite.db.models import _table_args
from ironic_lite.db.models import Base
from ironic_lite.db.models import JSONEncodedDict
from ironic_lite.db.models import JSONEncodedList


# -- runbooks (API 1.92, traits 1.112) -------------------------------------
class Runbook(Base):
    """Clean steps a node with a matching trait may run (1.92)."""
    __tablename__ = 'runbooks'
    __table_args__ = _table_args(
        UniqueConstraint('uuid', name='uniq_runbooks0uuid'),
        UniqueConstraint('name', name='uniq_runbooks0name'))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36))
    name = Column(String(255), nullable=False)
    description = Column(String(255), nullable=True)
    public = Column(Boolean, default=False)
    owner = Column(String(255), nullable=True)
    disable_ramdisk = Column(Boolean, default=False)
    extra = Column(JSONEncodedDict)
    version = Column(String(15), nullable=True)
    steps = orm.relationship('RunbookStep', lazy='selectin',
                             order_by='RunbookStep.id',
                             cascade='all, delete-orphan')
    traits = orm.relationship('RunbookTrait', lazy='selectin',
                              order_by='RunbookTrait.trait',
                              cascade='all, delete-orphan')


class RunbookStep(Base):
    """One step of a runbook (its own table, as Ironic's)."""
    __tablename__ = 'runbook_steps'
    __table_args__ = _table_args(
        Index('runbook_id', 'runbook_id'),
        Index('runbook_steps_interface_idx', 'interface'),
        Index('runbook_steps_step_idx', 'step'))

    id = Column(Integer, primary_key=True)
    runbook_id = Column(Integer, ForeignKey('runbooks.id'), nullable=False)
    interface = Column(String(255), nullable=False)
    step = Column(String(255), nullable=False)
    args = Column(JSONEncodedDict, nullable=False)
    order = Column(Integer, nullable=False)
    version = Column(String(15), nullable=True)


class RunbookTrait(Base):
    """A trait of a runbook (1.112): a node with one of them may run it."""
    __tablename__ = 'runbook_traits'
    __table_args__ = _table_args(Index('runbook_traits_idx', 'trait'))

    runbook_id = Column(Integer, ForeignKey('runbooks.id'),
                        primary_key=True, nullable=False)
    trait = Column(String(255), primary_key=True, nullable=False)
    version = Column(String(15), nullable=True)


# -- BIOS settings and node history (API 1.40/1.74, 1.78) ------------------


class InspectionRule(Base):
    """An inspection rule (API 1.96): conditions on what inspection
    found, actions on the node when they hold (Ironic's table)."""
    __tablename__ = 'inspection_rules'
    __table_args__ = _table_args(
        UniqueConstraint('uuid', name='uniq_inspection_rules0uuid'),
        Index('inspection_rule_scope_idx', 'scope'),
        Index('inspection_rule_phase_idx', 'phase'))

    id = Column(Integer, primary_key=True)
    uuid = Column(String(36), nullable=False)
    priority = Column(Integer, nullable=False, default=0)
    description = Column(String(255), nullable=True)
    scope = Column(String(255), nullable=True)
    sensitive = Column(Boolean, default=False)
    phase = Column(String(16), nullable=True, default='main')
    conditions = Column(JSONEncodedList, nullable=True)
    actions = Column(JSONEncodedList, nullable=False)
    version = Column(String(15), nullable=True)


class FirmwareComponent(Base):
    """A firmware component of a node (bios, bmc...) with its versions,
    as its firmware interface last reported them (release 6.0, API 1.86;
    vendor, model and serial_number 1.114): Ironic's table."""
    __tablename__ = 'firmware_information'
    __table_args__ = _table_args(
        UniqueConstraint('node_id', 'component',
                         name='uniq_nodecomponent0node_id0component'))

    id = Column(Integer, primary_key=True, nullable=False)
    node_id = Column(Integer, ForeignKey('nodes.id'), nullable=False)
    component = Column(String(255), nullable=False)
    initial_version = Column(String(255), nullable=False)
    current_version = Column(String(255), nullable=True)
    last_version_flashed = Column(String(255), nullable=True)
    vendor = Column(String(255), nullable=True)
    model = Column(String(255), nullable=True)
    serial_number = Column(String(255), nullable=True)
    version = Column(String(15), nullable=True)
