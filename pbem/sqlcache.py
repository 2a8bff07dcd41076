"""Hot queries whose SQL text is built once per kind of database, then run with new values.

Peewee builds a query's SQL anew on every run, walking every column and condition: for a
wide row (a game, a table of seats with their players) that costs about a millisecond,
more than SQLite takes to answer, and a click runs dozens of queries.  A
:class:`Prepared` query is built once with marker values; its SQL and the places of the
markers among its parameters are kept per kind of database (the SQL differs only by
dialect), and each run sends that SQL with the values in those places.  Rows come back
as the query's own models (joins included), through peewee's cursor wrapper.

Only for queries whose shape never changes and whose values are whole numbers (ids,
move numbers, seat indexes, limits) or, at the places named ``dates``, moments
(``datetime``: the tick's "due by now", which peewee hands the driver as it is); a value
of another kind is converted by peewee, which a marker cannot stand for.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import peewee as pw

#: the first marker; the n-th value is ``_MARK - n`` (no id or move number comes near)
_MARK = -7_301_946_557
#: the first moment marker; the n-th is a microsecond later (no stored time comes near)
_MOMENT = datetime(1, 2, 3, 4, 5, 6, 7)


def _markable(value: Any) -> bool:
    """Whether ``value`` may be one of the marks a statement is made with: a whole number
    or a moment (freezegun's too: ``isinstance`` answers for either class)."""
    return type(value) is int or isinstance(value, datetime)


class Prepared:
    """A query of ``model`` (``build(*values)`` returns it), run by :meth:`rows`."""

    def __init__(self, model: type[pw.Model], build: Callable[..., pw.BaseQuery],
                 arity: int, shared: tuple[type[pw.Model], ...] = (),
                 dates: tuple[int, ...] = ()):
        self.model = model
        self.build = build
        self.arity = arity
        #: for each place, whether its value is a moment (``datetime``) or a whole number;
        #: flags, not classes: a module imported under freezegun sees its ``FakeDatetime``
        #: where ``datetime`` is named, and a class kept from then would not be the one
        #: named after (or before) the frozen clock
        self.moments = tuple(i in dates for i in range(arity))
        #: joined models that every row names the same one of (a table's seats, their
        #: game): made from the first row, and that one model given to every row
        self.shared = shared
        self._made: dict[type, tuple[pw.BaseQuery, str, list[tuple[bool, Any]]]] = {}
        self._lock = threading.Lock()
        self._resolved: dict[type, dict[str, Any]] = {}

    def _made_for(self, database: pw.Database) -> tuple[pw.BaseQuery, str, list[Any]]:
        made = self._made.get(type(database))
        if made is None:
            marks = [_MOMENT + timedelta(microseconds=i) if moment else _MARK - i
                     for i, moment in enumerate(self.moments)]
            query = self.build(*marks)
            sql, params = query.sql()
            # each parameter: the value given at that mark's place, or a constant of the shape
            slots = [(True, marks.index(p)) if _markable(p) and p in marks
                     else (False, p) for p in params]
            if {i for is_mark, i in slots if is_mark} != set(range(self.arity)):
                raise ValueError("every value must reach the SQL as it was given "
                                 "(a whole number, or a moment where ``dates`` says)")
            made = (query, sql, slots)
            with self._lock:
                self._made[type(database)] = made
        return made

    def rows(self, *values: int) -> list[Any]:
        """The rows of the query with ``values`` in the markers' places."""
        # a moment may be of a subclass (freezegun's), which the driver takes as it is
        if len(values) != self.arity or not all(
                isinstance(v, datetime) if moment else type(v) is int
                for v, moment in zip(values, self.moments, strict=True)):
            kinds = tuple("datetime" if moment else "int" for moment in self.moments)
            raise TypeError(f"{self.arity} values of the kinds {kinds} expected, "
                            f"not {values!r}")
        database = self.model._meta.database
        database = getattr(database, "obj", None) or database  # behind a DatabaseProxy
        template, sql, slots = self._made_for(database)
        params = [values[v] if is_mark else v for is_mark, v in slots]
        cursor = database.execute_sql(sql, params)
        found = cursor.fetchall()
        if not found:
            cursor.close()
            return []
        wrapper = template._get_cursor_wrapper(cursor)
        # peewee's wrapper works out, for every run, which column fills which model's
        # field from the cursor's description: the same for the same SQL, so what its
        # ``initialize`` sets is kept (and nothing of the run: the cursor, the counts)
        resolved = self._resolved.get(type(database))
        if resolved is None:
            before = dict(vars(wrapper))
            wrapper.initialize()
            resolved = {k: v for k, v in vars(wrapper).items()
                        if k not in before or before[k] is not v}
            resolved["_pbem_plan"] = _plan_of(wrapper)
            self._resolved[type(database)] = resolved
        else:
            vars(wrapper).update(resolved)
        cursor.close()
        plan = resolved["_pbem_plan"]
        if plan is None:
            return [wrapper.process_row(row) for row in found]
        shape, columns, constructor, groups = plan
        if shape == "single":
            if groups is not None:
                return [_made_single_grouped(constructor, groups[0], row) for row in found]
            return [_made_single(constructor, columns, row) for row in found]
        if groups is not None:
            ids = resolved.get("_pbem_shared_ids")
            if ids is None:  # where the shared models' ids are among the columns
                ids = resolved["_pbem_shared_ids"] = [
                    (i, key) for i, key, name, _attr, _conv, _same in columns
                    if key in self.shared and name == key._meta.primary_key.name]
            return self._joined_grouped(wrapper, ids, groups, found)
        first = _made_joined(wrapper, columns, found[0], {})
        # a shared model's columns are read once; a row naming another one (by its id),
        # or none (an outer join that found nothing), makes its own, as peewee would
        id_at = {key: i for i, key, name, _attr, _conv, _same in columns
                 if key in self.shared and key in first
                 and name == key._meta.primary_key.name and found[0][i] is not None
                 } if self.shared else {}
        made = [first]
        for row in found[1:]:
            same = {key: first[key] for key, i in id_at.items() if row[i] == found[0][i]}
            made.append(_made_joined(wrapper, columns, row, same))
        return [objects[wrapper.model] for objects in made]

    @staticmethod
    def _joined_grouped(wrapper: Any, ids: list[tuple[int, Any]], groups: list[_Group],
                        found: list[tuple[Any, ...]]) -> list[Any]:
        """``rows``' joined models, made by groups (``_made_joined_grouped``); ``ids``:
        the columns of the shared models' ids."""
        first = _made_joined_grouped(wrapper, groups, found[0], {})
        id_at = {key: i for i, key in ids if key in first and found[0][i] is not None}
        made = [first]
        for row in found[1:]:
            same = {key: first[key] for key, i in id_at.items() if row[i] == found[0][i]}
            made.append(_made_joined_grouped(wrapper, groups, row, same))
        return [objects[wrapper.model] for objects in made]

    def first(self, *values: int) -> Any:
        found = self.rows(*values)
        return found[0] if found else None


# -- rows -----------------------------------------------------------------------------
#
# Peewee makes each row's models by setting every column through the field's descriptor
# (``setattr``), which marks it changed, and then forgets the marks: for a table's rows
# (a seat, its player and the game's columns: about seventy values a row) that is most
# of reading it.  The plan below writes a field's value straight into the model's data,
# where the descriptor would have put it, and leaves joins and any column that is not a
# plain field (an alias such as ``table_state``) to peewee's own ``setattr``; what comes
# out is what ``process_row`` makes (``tests/test_sqlcache.py`` compares the two).

#: per column: its index, the key of the model it fills, the data key it fills (None:
#: set as an attribute), the attribute's name, the converter, and the type of the values
#: the converter gives back as they are (``_unconverted``; None: every value converted)
_Column = tuple[int, Any, "str | None", str, Any, Any]


def _unconverted(converter: Any) -> type | None:
    """The type whose values ``converter`` returns unchanged, where it is a plain
    field's: an integer field's ``int(value)`` of an int is that int, a text field's
    text is that text, a boolean's bool that bool, a foreign key's id its key field's.
    The driver mostly hands those over already (SQLite and psycopg2 alike), and a row
    has dozens of them."""
    field = getattr(converter, "__self__", None)
    if not isinstance(field, pw.Field) or getattr(converter, "__func__", None) is not (
            type(field).python_value):
        return None
    kind = type(field)
    if kind.python_value is pw.ForeignKeyField.python_value:
        return _unconverted(field.rel_field.python_value)
    if kind.python_value is not pw.Field.python_value:
        return None
    return _ADAPTED.get(kind.adapt)


#: the type each plain field's ``adapt`` gives back unchanged, reading and writing
#: (``_unconverted``, ``_stored_as_is``): an integer field's, a text field's
#: (``_StringField``'s: CharField, TextField), a boolean's (PostgreSQL's booleans)
_ADAPTED: dict[Any, type] = {pw.IntegerField.adapt: int, pw.CharField.adapt: str,
                             pw.BooleanField.adapt: bool}


def _data_key(model: type[pw.Model], name: str) -> str | None:
    """Where in ``model``'s data setting attribute ``name`` stores a value on a model just
    made (nothing in its data or its related objects yet); None if not a plain field."""
    for klass in model.__mro__:
        if name in vars(klass):
            found = vars(klass)[name]
            break
    else:
        return None
    if type(found) in (pw.FieldAccessor, pw.ForeignKeyAccessor):
        return found.name
    if type(found) is pw.ObjectIdAccessor:  # ``game_id`` sets the field ``game``
        return _data_key(model, found.field.name)
    return None


#: what ``_join`` reads of peewee's wrapper (peewee 4); without them peewee makes the rows
_JOIN_PARTS = ("_row_spec", "_constructor_list", "src_to_dest", "_dest_reachable",
               "key_to_constructor")


_Plan = tuple[str, list[_Column], Any, "list[_Group] | None"]


def _plan_of(wrapper: Any) -> _Plan | None:
    """How to make a row's models without peewee's per-column ``setattr``: None where the
    wrapper is not one of the two shapes planned for (then peewee makes the rows)."""
    if type(wrapper) is pw.ModelCursorWrapper:
        if not all(hasattr(wrapper, name) for name in _JOIN_PARTS) or not all(
                is_model for _key, _make, is_model in wrapper._constructor_list):
            return None
        keys = dict(wrapper.key_to_constructor)
        models = {key: keys.get(key, (wrapper.model,))[0]
                  for _i, key, _column, _converter in wrapper._row_spec}
        columns = [(i, key, _data_key(models[key], column), column,
                    converter, _unconverted(converter))
                   for i, key, column, converter in wrapper._row_spec]
        return "joined", columns, None, _groups(columns, models)
    if type(wrapper) is pw.ModelObjectCursorWrapper and wrapper.is_model:
        names = wrapper.unique_columns
        columns = [(i, wrapper.model, _data_key(wrapper.constructor, names[i]), names[i],
                    wrapper.converters[i], _unconverted(wrapper.converters[i]))
                   for i in range(wrapper.ncols)]
        groups = _groups(columns, {wrapper.model: wrapper.constructor})
        return "single", columns, wrapper.constructor, groups
    return None


class _Group:
    """The columns of a row that fill one model (``_groups``): its fields' values are
    taken from the row and put into the model's data in one step each (in C), and only
    those that need it are converted afterwards (in their places: a dict keeps the
    place of a key written again); columns that are not a field's are set as peewee
    sets them."""

    __slots__ = ("key", "take", "names", "kinds", "converters", "verdicts", "attrs")

    def __init__(self, key: Any, fields: list[_Column], attrs: list[_Column]):
        self.key = key
        indexes = [i for i, *_rest in fields]
        self.take = (operator.itemgetter(*indexes) if len(indexes) > 1
                     else (lambda row, i=indexes[0]: (row[i],)) if indexes
                     else (lambda row: ()))
        self.names = tuple(name for _i, _key, name, *_rest in fields)
        #: per field: the type taken as it is (``_unconverted``), or ``_ALWAYS``
        self.kinds = tuple(_ALWAYS if same is None else same
                           for *_rest, converter, same in fields)
        self.converters = tuple(converter for *_rest, converter, _same in fields)
        #: the places to convert, by the types of the values taken (a few shapes: the
        #: nullable columns' None or not)
        self.verdicts: dict[tuple[type, ...], tuple[int, ...]] = {}
        self.attrs = [(i, attr, converter) for i, _key, _name, attr, converter, _same
                      in attrs]

    def to_convert(self, values: tuple[Any, ...]) -> tuple[int, ...]:
        """The places of ``values`` whose converter is to be called: as ``_made_single``
        decides, value by value (a value of its field's ``_unconverted`` type is not)."""
        types = tuple(map(type, values))
        places = self.verdicts.get(types)
        if places is None:
            if len(self.verdicts) >= 64:
                self.verdicts.clear()
            places = self.verdicts[types] = tuple(
                place for place, (kind, converter, found)
                in enumerate(zip(self.kinds, self.converters, types, strict=True))
                if converter is not None and found is not kind)
        return places


#: no type is taken as it is: every value converted
_ALWAYS = object()


def _groups(columns: list[_Column], models: dict[Any, Any]) -> list[_Group] | None:
    """The columns by the model they fill, in the order models first appear; None where a
    model's columns could not be filled in one step as they would be one by one (two
    columns for one field, a column set through a descriptor of the model's class other
    than a field's), then the row is made column by column."""
    keys: dict[Any, tuple[list[_Column], list[_Column]]] = {}
    for column in columns:
        fields, attrs = keys.setdefault(column[1], ([], []))
        (attrs if column[2] is None else fields).append(column)
    for key, (fields, attrs) in keys.items():
        names = [column[2] for column in fields]
        if len(set(names)) != len(names) or any(
                any(column[3] in vars(klass) for klass in models[key].__mro__)
                for column in attrs):
            return None
    return [_Group(key, fields, attrs) for key, (fields, attrs) in keys.items()]


def _made_single(constructor: Any, columns: list[_Column], row: tuple[Any, ...]) -> Any:
    """The model of one row of a table read alone, as ``process_row`` makes it."""
    obj = constructor(__no_default__=1)
    data = obj.__data__
    for i, _key, name, attr, converter, same in columns:
        value = row[i]
        if converter is not None and type(value) is not same:
            value = converter(value)
        if name is None:
            setattr(obj, attr, value)
        else:
            data[name] = value
    obj._dirty.clear()
    return obj


def _filled(instance: Any, group: _Group, row: tuple[Any, ...]) -> bool:
    """The group's columns of ``row`` put into ``instance`` as ``_made_single`` puts them,
    column by column; whether any value was not None (peewee's "set" model)."""
    values = group.take(row)
    data = instance.__data__
    data.update(zip(group.names, values, strict=True))
    for place in group.to_convert(values):
        data[group.names[place]] = group.converters[place](values[place])
    found = values.count(None) != len(values)
    for i, attr, converter in group.attrs:
        value = row[i]
        if value is not None:
            found = True
        setattr(instance, attr, value if converter is None else converter(value))
    return found


def _made_single_grouped(constructor: Any, group: _Group, row: tuple[Any, ...]) -> Any:
    """``_made_single``, by ``_filled``."""
    obj = constructor(__no_default__=1)
    _filled(obj, group, row)
    obj._dirty.clear()
    return obj


def _made_joined_grouped(wrapper: Any, groups: list[_Group], row: tuple[Any, ...],
                         shared: dict[Any, Any]) -> dict[Any, Any]:
    """``_made_joined``, by ``_filled``."""
    objects = {key: shared[key] if key in shared else make(__no_default__=True)
               for key, make, _is_model in wrapper._constructor_list}
    root = objects[wrapper.model]
    set_keys = set(shared)
    for group in groups:
        if group.key in shared:
            continue
        if _filled(objects.get(group.key, root), group, row):
            set_keys.add(group.key)
    _join(wrapper, objects, set_keys)
    for instance in objects.values():
        instance._dirty.clear()
    return objects


def _made_joined(wrapper: Any, columns: list[_Column], row: tuple[Any, ...],
                 shared: dict[Any, Any]) -> dict[Any, Any]:
    """The models of one row of a join, by their keys; those in ``shared`` are given,
    not made again (their columns are passed over)."""
    objects = {key: shared[key] if key in shared else make(__no_default__=True)
               for key, make, _is_model in wrapper._constructor_list}
    root = objects[wrapper.model]
    set_keys = set(shared)
    for i, key, name, attr, converter, same in columns:
        if key in shared:
            continue
        value = row[i]
        if value is not None:
            set_keys.add(key)
        if converter is not None and type(value) is not same:
            value = converter(value)
        instance = objects.get(key, root)
        if name is None:
            setattr(instance, attr, value)
        else:
            instance.__data__[name] = value
    _join(wrapper, objects, set_keys)
    for instance in objects.values():
        instance._dirty.clear()
    return objects


def _join(wrapper: Any, objects: dict[Any, Any], set_keys: set[Any]) -> None:
    """Each joined model set on the one it was joined from: ``ModelCursorWrapper``'s
    ``process_row`` (peewee 4), its steps in its order."""
    for src, attr, dest, is_dict, is_outer, is_fk in wrapper.src_to_dest:
        instance = objects.get(src)
        joined = objects.get(dest)
        if joined is None and dest not in objects:
            continue
        assign = False
        if dest not in set_keys and dest in wrapper._dest_reachable:
            assign = bool(wrapper._dest_reachable[dest] & set_keys)
        if dest not in set_keys and not assign:
            if not is_outer:
                continue
            joined = None
        if src not in set_keys and dest not in set_keys and is_outer:
            continue
        if is_dict:
            instance[attr] = joined
        elif is_fk and joined is None:
            instance.__rel__[attr] = None
        else:
            setattr(instance, attr, joined)


# -- writes ---------------------------------------------------------------------------
#
# A move writes its log row, its mails' rows, the seats whose turn changed and the game;
# peewee builds each statement anew, walking every column.  These build the text once
# per shape (the table, the columns written, and for ``update_rows`` which row sets
# which) and kind of database, and convert each value as peewee would (``db_value``).

#: the SQL text of each shape of write
_WRITES: dict[tuple[Any, ...], str] = {}


def _database_of(model: type[pw.Model]) -> pw.Database:
    database = model._meta.database
    return getattr(database, "obj", None) or database  # behind a DatabaseProxy


class Written:
    """A statement whose SQL text ``write`` writes once per kind of database (it is given
    the database: its parameter mark ``param``, its kind), for a query peewee would build
    anew at every run, or whose shape peewee cannot give (a constant where peewee binds
    every value: ``pbem.mail.later.due``).  ``model``: a model of the database it runs on."""

    def __init__(self, model: type[pw.Model], write: Callable[[pw.Database], str]) -> None:
        self.model, self.write = model, write
        self._sql: dict[type, str] = {}

    def run(self, params: list[Any]) -> Any:
        """The statement run with ``params``; its cursor."""
        database = _database_of(self.model)
        sql = self._sql.get(type(database))
        if sql is None:  # two threads may both write it: the same text
            sql = self._sql[type(database)] = self.write(database)
        return database.execute_sql(sql, params)

    def one(self, params: list[Any]) -> tuple[Any, ...] | None:
        """The first row of its answer, or None."""
        cursor = self.run(params)
        try:
            return cursor.fetchone()
        finally:
            cursor.close()

    def all(self, params: list[Any]) -> list[tuple[Any, ...]]:
        """Every row of its answer."""
        cursor = self.run(params)
        try:
            return cursor.fetchall()
        finally:
            cursor.close()


def _written(key: tuple[Any, ...], make: Callable[[], str]) -> str:
    sql = _WRITES.get(key)
    if sql is None:
        sql = _WRITES[key] = make()  # two threads may both make it: the same text
    return sql


def _name(field: pw.Field) -> str:
    return f'"{field.column_name}"'


def insert(model: type[pw.Model], **values: Any) -> Any:
    """``model.create(**values)``: the new row as a model, its id set, defaults filled
    as peewee fills them."""
    row = model(**values)
    data = row.__data__
    database = _database_of(model)
    pk = model._meta.primary_key
    returning = isinstance(database, pw.PostgresqlDatabase)

    def plan() -> tuple[str, list[tuple[pw.Field, Any]]]:
        fields = [f for f in model._meta.sorted_fields
                  if f.name in data and not (f is pk and data[f.name] is None)]
        key = ("insert", model, type(database), tuple(f.name for f in fields))
        return _written(key, lambda: _insert_sql(model, fields, 1, database.param) + (
            f' RETURNING "{pk.column_name}"' if returning else "")), _with_types(fields)

    sql, columns = _planned(("insert", model, type(database), tuple(data),
                             data.get(pk.name) is None), plan)
    cursor = database.execute_sql(sql, _values(columns, data))
    data[pk.name] = cursor.fetchone()[0] if returning else cursor.lastrowid
    row._dirty.clear()
    return row


def insert_many(model: type[pw.Model], rows: list[dict[str, Any]]) -> None:
    """``model.insert_many(rows)`` for rows that name the same columns: one statement."""
    if not rows:
        return
    made = [model(**values).__data__ for values in rows]
    names = tuple(rows[0])
    if any(tuple(values) != names for values in rows):
        raise ValueError("every row must name the same columns, in the same order")
    database = _database_of(model)

    def plan() -> tuple[str, list[tuple[pw.Field, Any]]]:
        fields = [f for f in model._meta.sorted_fields if f.name in made[0]]
        key = ("insert_many", model, type(database), tuple(f.name for f in fields), len(made))
        return (_written(key, lambda: _insert_sql(model, fields, len(made), database.param)),
                _with_types(fields))

    sql, columns = _planned(("insert_many", model, type(database), tuple(made[0]),
                             len(made)), plan)
    database.execute_sql(sql, [value for data in made for value in _values(columns, data)])


#: each shape of an insert (the model, the kind of database, the row's data keys) with
#: its SQL and its columns (``_with_types``)
_INSERTS: dict[tuple[Any, ...], tuple[str, list[tuple[pw.Field, Any]]]] = {}


def _planned(key: tuple[Any, ...], plan: Callable[[], tuple[str, list[tuple[pw.Field, Any]]]]
             ) -> tuple[str, list[tuple[pw.Field, Any]]]:
    made = _INSERTS.get(key)
    if made is None:
        if len(_INSERTS) >= 1024:
            _INSERTS.clear()
        made = _INSERTS[key] = plan()
    return made


def _with_types(fields: list[pw.Field]) -> list[tuple[pw.Field, Any]]:
    """Each field with the type of the values it writes as they are (``_stored_as_is``)."""
    return [(f, _stored_as_is(f)) for f in fields]


def _values(columns: list[tuple[pw.Field, Any]], data: dict[str, Any]) -> list[Any]:
    """The parameters of a row's ``data`` for ``columns``: each value as its field's
    ``db_value`` writes it (a value of the field's ``_stored_as_is`` type as it is)."""
    return [value if type(value := data[field.name]) is same else field.db_value(value)
            for field, same in columns]


#: each shape of an update (``update_rows``: the model, the kind of database, the fields
#: each row changed) with its SQL and where each of its parameters comes from
_UPDATES: dict[tuple[Any, ...], tuple[str, list[tuple[int, Any, Any]]]] = {}


def _update_plan(model: type[pw.Model], database: pw.Database, changed: list[frozenset[str]]
                 ) -> tuple[str, list[tuple[int, Any, Any]]]:
    """``update_rows``' statement for rows that changed ``changed``, and its parameters'
    sources: (row, field, the type its ``db_value`` gives back as it is), or (row, None,
    None) for the row's id."""
    pk = model._meta.primary_key
    fields = [f for f in model._meta.sorted_fields if any(f.name in c for c in changed)]
    p = database.param
    shape = tuple(tuple(f.name for f in fields if f.name in c) for c in changed)
    if len(changed) == 1:
        sql = _written(("update", model, type(database), shape), lambda: (
            f'UPDATE "{model._meta.table_name}" SET '
            + ", ".join(f"{_name(f)} = {p}" for f in fields)
            + f" WHERE {_name(pk)} = {p}"))
        slots = [(0, f) for f in fields] + [(0, None)]
    else:
        def case(field: pw.Field) -> str:
            whens = " ".join(f"WHEN {p} THEN {p}" for c in changed if field.name in c)
            return f"{_name(field)} = CASE {_name(pk)} {whens} ELSE {_name(field)} END"

        sql = _written(("update", model, type(database), shape), lambda: (
            f'UPDATE "{model._meta.table_name}" SET ' + ", ".join(case(f) for f in fields)
            + f" WHERE {_name(pk)} IN ({', '.join([p] * len(changed))})"))
        slots = [slot for f in fields for i, c in enumerate(changed) if f.name in c
                 for slot in ((i, None), (i, f))]
        slots += [(i, None) for i in range(len(changed))]
    return sql, [(i, f, None if f is None else _stored_as_is(f)) for i, f in slots]


def _stored_as_is(field: pw.Field) -> type | None:
    """The type whose values ``field.db_value`` returns unchanged (as ``_unconverted``
    for reading): ints of an integer field or a foreign key, texts, booleans."""
    kind = type(field)
    if kind.db_value is pw.ForeignKeyField.db_value:
        return _stored_as_is(field.rel_field)
    if kind.db_value is not pw.Field.db_value:
        return None
    return _ADAPTED.get(kind.adapt)


def _insert_sql(model: type[pw.Model], fields: list[pw.Field], rows: int, param: str) -> str:
    one = f'({", ".join([param] * len(fields))})'
    return (f'INSERT INTO "{model._meta.table_name}" ({", ".join(_name(f) for f in fields)}) '
            f'VALUES {", ".join([one] * rows)}')


def update_rows(rows: list[Any], only: list[pw.Field] | None = None) -> None:
    """Save what changed in each of ``rows`` (models of one table) in one statement: each
    column set where a row changed it (``CASE`` on the id), left as it is elsewhere.
    ``only``: these fields of every row instead, changed or not (peewee's ``save(only=…)``)."""
    names = None if only is None else frozenset(f.name for f in only)
    dirty = [row for row in rows if row._dirty] if names is None else list(rows)
    if not dirty:
        return
    model = type(dirty[0])
    database = _database_of(model)
    # fields compare by name here: a peewee field's ``==`` makes an SQL expression
    key = (model, type(database),
           tuple(frozenset(row._dirty) if names is None else names for row in dirty))
    made = _UPDATES.get(key)
    if made is None:
        if len(_UPDATES) >= 1024:
            _UPDATES.clear()
        made = _UPDATES[key] = _update_plan(model, database, list(key[2]))
    sql, slots = made
    params = [dirty[i].id if field is None
              else value if type(value := dirty[i].__data__[field.name]) is same
              else field.db_value(value)
              for i, field, same in slots]
    database.execute_sql(sql, params)
    for row in dirty:
        if names is None:
            row._dirty.clear()
        else:
            row._dirty -= names
